/**
 * A chart's `data` as the response carries it: JSON, or the tidy csv/ndjson rows. Done where the
 * data was computed (a compute thread), so the event loop never parses or renders a large payload:
 * rendering a 500-symbol × 100-period export there held every other request for 0.5–1.1 s.
 */
import type { ChartData, Format } from "../engine/types.ts";
import { toCsv, toNdjson } from "./tidy-export.ts";

export function serialise(data: ChartData, format: Format): string {
  if (format === "csv") return toCsv(data);
  if (format === "ndjson") return toNdjson(data);
  return JSON.stringify(data);
}
