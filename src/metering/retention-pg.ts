/** retention.ts on PostgreSQL: audit rows past the retention deleted in batches, each its own short statement. */
import type { SQL } from "bun";
import type { Clock } from "../clock.ts";
import type { Pruned } from "./retention.ts";
import { idCeiling } from "./log-ids.ts";
import { pgLogIds } from "./log-ids-pg.ts";
import { DAY_MS, utcDayStart } from "./windows.ts";

const BATCH = 5000;

export async function pruneAuditPg(sql: SQL, clock: Clock, retentionDays: number): Promise<Pruned> {
  const cutoff = clock.now() - retentionDays * DAY_MS;
  // The oldest rows by id (log-ids.ts), those past the cutoff: a walk of the primary key, no ts index.
  const ceiling = await idCeiling(pgLogIds(sql), cutoff);
  let requests = 0;
  for (;;) {
    const rows =
      await sql`DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < ${ceiling} AND ts < ${cutoff} LIMIT ${BATCH}) RETURNING 1`;
    requests += rows.length;
    if (rows.length < BATCH) break;
  }
  // A day's count goes only once the whole day is past the cutoff, so today's quota is never touched.
  const days = (await sql`DELETE FROM usage_days WHERE day < ${utcDayStart(cutoff)} RETURNING 1`).length;
  const counts = (await sql`DELETE FROM unauthenticated_counts WHERE minute < ${cutoff} RETURNING 1`).length;
  return { requests, days, counts };
}
