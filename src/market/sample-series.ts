/**
 * The synthetic sample as engine input without a database: the demo endpoint uses it so its
 * payload is the same whether or not (and however) the sample was loaded into the database.
 */
import type { SeriesInput } from "../engine/types.ts";
import { generateSample } from "./sample-generator.ts";
import { formatLocal } from "./timestamps.ts";

/**
 * The sample universe's closes at `1d` (stored daily bars) or `1m`, aligned on their union
 * calendar exactly as `loadSeries` returns them from a database holding the sample.
 */
export function sampleSeriesInput(interval: "1d" | "1m" = "1d"): SeriesInput {
  const sample = generateSample();
  const bars = sample.series.map((s) => (interval === "1d" ? s.daily : s.minute));
  const offsetOf = new Map<number, number>();
  for (const list of bars) for (const b of list) if (!offsetOf.has(b.ts)) offsetOf.set(b.ts, b.offsetMin);
  const calendar = [...offsetOf.keys()].sort((a, b) => a - b);
  const index = new Map(calendar.map((t, k) => [t, k]));
  const closes = bars.map((list) => {
    const out = new Float64Array(calendar.length).fill(NaN);
    for (const b of list) out[index.get(b.ts)!] = b.close;
    return out;
  });
  return { symbols: sample.symbols, labels: calendar.map((t) => formatLocal(t, offsetOf.get(t)!)), closes };
}
