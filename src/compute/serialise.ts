/**
 * A chart's `data` as the response carries it: JSON, or the tidy csv/ndjson rows. Done where the
 * data was computed (a compute thread), so the event loop never parses or renders a large payload:
 * rendering a 500-symbol × 100-period export there held every other request for 0.5–1.1 s.
 * The format is the HTTP request's, not the engine's: one computed result serves every format.
 */
import type { ChartData } from "../engine/types.ts";
import { toCsv, toNdjson } from "./tidy-export.ts";

export const FORMATS = ["json", "csv", "ndjson"] as const;
export type Format = (typeof FORMATS)[number];
export type TidyFormat = Exclude<Format, "json">;

export function serialise(data: ChartData, format: Format): string {
  if (format === "csv") return toCsv(data);
  if (format === "ndjson") return toNdjson(data);
  return JSON.stringify(data);
}

/**
 * A tidy body from a cached result's JSON. The payload is JSON-clean (numbers rounded, non-finite
 * ones null: engine/round.ts), so these rows are byte for byte the ones rendered from the data itself.
 */
export function renderTidy(dataJson: string, format: TidyFormat): string {
  return serialise(JSON.parse(dataJson) as ChartData, format);
}
