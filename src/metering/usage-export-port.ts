/** What each database implements for the billing export (usage-export.ts): one page of counted rows, by id. */
import type { LogIds } from "./log-ids.ts";
import type { Maybe } from "./meter-port.ts";

/** An admitted, answered, not refunded request (request_log counted = 1, status set). */
export interface BilledRow {
  id: number;
  requestId: string;
  userId: string;
  ts: number;
  status: number;
  durationMs: number | null;
  costMs: number | null;
  plan: string | null;
}

export interface UsageExportPort {
  ids: LogIds;
  /**
   * Up to `limit` counted, answered rows with id in (afterId, toId) and ts in [from, to), by id:
   * keyset pages on the primary key, so a year of log streams in bounded memory.
   */
  page(afterId: number, toId: number, from: number, to: number, limit: number): Maybe<BilledRow[]>;
}
