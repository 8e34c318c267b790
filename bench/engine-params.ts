/** Chart parameters from a query string, as a request would give them (for the engine benches). */
import { parseChartParams } from "../src/http/params/params.ts";
import type { ChartParams } from "../src/engine/types.ts";

export function chartParams(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "bench" });
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.params;
}
