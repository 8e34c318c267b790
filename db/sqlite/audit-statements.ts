/** The audit queue's and the unauthenticated counter's writes on SQLite: each batch one BEGIN IMMEDIATE transaction. */
import type { Database } from "bun:sqlite";
import type { AuditBatch } from "../../src/metering/audit-queue.ts";
import type { MinuteCount } from "../../src/metering/unauthenticated-counter.ts";

export interface AuditStatements {
  writeAudit(batch: AuditBatch): void;
  writeCounts(counts: MinuteCount[]): void;
}

export function sqliteAuditStatements(sqlite: Database): AuditStatements {
  const insert = sqlite.prepare<unknown, [string, string, number, number, number | null, string | null, string]>(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
  );
  const update = sqlite.prepare<unknown, [number, number]>("UPDATE request_log SET duration_ms = ?1 WHERE id = ?2 AND duration_ms IS NULL");
  const upsert = sqlite.prepare<unknown, [number, string, number]>(
    "INSERT INTO unauthenticated_counts (minute, code, count) VALUES (?1, ?2, ?3) ON CONFLICT (minute, code) DO UPDATE SET count = count + ?3",
  );
  const inTransaction = (run: () => void) => {
    sqlite.exec("BEGIN IMMEDIATE");
    try {
      run();
      sqlite.exec("COMMIT");
    } catch (err) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw err;
    }
  };
  return {
    writeAudit: ({ rows, durations, groups }) =>
      inTransaction(() => {
        for (const r of rows) insert.run(r.requestId, r.userId, r.ts, r.status, r.durationMs, r.code, r.params);
        for (const [id, ms] of durations) update.run(ms, id);
        for (const g of groups) insert.run("aggregated", g.userId, g.minute, g.status, null, g.code, JSON.stringify({ aggregated: g.n }));
      }),
    writeCounts: (counts) =>
      inTransaction(() => {
        for (const c of counts) upsert.run(c.minute, c.code, c.count);
      }),
  };
}
