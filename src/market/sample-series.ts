/**
 * The synthetic sample's daily closes as engine input, straight from the generator (no
 * database), so the public demo is the same on every install whatever the database holds.
 */
import type { SeriesInput } from "../engine/types.ts";
import { generateSample } from "./sample-generator.ts";
import { formatLocal } from "./timestamps.ts";

export function sampleSeriesInput(): SeriesInput {
  const sample = generateSample();
  const calendar = new Map<number, number>(); // ts → offset
  for (const s of sample.series) for (const b of s.daily) calendar.set(b.ts, b.offsetMin);
  const stamps = [...calendar.keys()].sort((a, b) => a - b);
  const index = new Map(stamps.map((ts, k) => [ts, k]));
  const closes = sample.series.map((s) => {
    const row = new Float64Array(stamps.length).fill(NaN);
    for (const b of s.daily) row[index.get(b.ts)!] = b.close;
    return row;
  });
  return { symbols: sample.series.map((s) => s.symbol), labels: stamps.map((ts) => formatLocal(ts, calendar.get(ts)!)), closes };
}
