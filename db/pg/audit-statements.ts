/** The audit queue's and the unauthenticated counter's writes on PostgreSQL: each batch one transaction. */
import type { SQL } from "bun";
import { numberArray } from "./arrays.ts";
import type { AuditBatch } from "../../src/metering/audit-queue.ts";
import type { MinuteCount } from "../../src/metering/unauthenticated-counter.ts";

export interface AsyncAuditStatements {
  writeAudit(batch: AuditBatch): Promise<void>;
  writeCounts(counts: MinuteCount[]): Promise<void>;
}

export function pgAuditStatements(sql: SQL): AsyncAuditStatements {
  return {
    writeAudit: ({ rows, durations, groups }) =>
      sql.begin(async (tx) => {
        for (const r of rows)
          await tx`INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params)
            VALUES (${r.requestId}, ${r.userId}, ${r.ts}, ${r.status}, ${r.durationMs}, 0, ${r.code}, ${r.params})`;
        // Every duration of the batch in one statement: a second's answers are hundreds of them.
        if (durations.length > 0)
          await tx`UPDATE request_log SET duration_ms = d.ms
            FROM unnest(${numberArray(durations.map((d) => d[0]))}::bigint[], ${numberArray(durations.map((d) => d[1]))}::float8[]) AS d(id, ms)
            WHERE request_log.id = d.id AND request_log.duration_ms IS NULL`;
        for (const g of groups)
          await tx`INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params)
            VALUES ('aggregated', ${g.userId}, ${g.minute}, ${g.status}, NULL, 0, ${g.code}, ${JSON.stringify({ aggregated: g.n })})`;
      }),
    writeCounts: (counts) =>
      sql.begin(async (tx) => {
        for (const c of counts)
          await tx`INSERT INTO unauthenticated_counts (minute, code, count) VALUES (${c.minute}, ${c.code}, ${c.count})
            ON CONFLICT (minute, code) DO UPDATE SET count = unauthenticated_counts.count + ${c.count}`;
      }),
  };
}
