/**
 * Audit rows that meter nothing (a known user's 400/403/404, a 429's duration), kept in memory
 * and written in one transaction per flush instead of one write per request: while another
 * process holds the write lock, a request must not wait for it on the event loop (issue #12
 * item 7). Memory is bounded in bytes; past the bound, requests are counted per minute, user,
 * status and code and written as one row per group (request_id 'aggregated', params
 * {"aggregated":n}), never dropped.
 */
import type { Database } from "bun:sqlite";
import { MINUTE_MS } from "./windows.ts";

export interface AuditRow {
  requestId: string;
  userId: string;
  ts: number;
  status: number;
  code: string | null;
  params: string;
  durationMs: number;
}

export interface AuditQueue {
  /** Queues a row; returns false when it was aggregated because the queue is full. */
  add(row: AuditRow): boolean;
  /** Queues the duration of a row already written (a 429 recorded inside the meter's transaction). */
  setDuration(logId: number, durationMs: number): void;
  /** Writes everything queued in one transaction; on failure keeps it all for the next flush. */
  flush(): void;
  /** Entries waiting (rows, updates and aggregate groups). */
  pending(): number;
  bytes(): number;
}

export const AUDIT_QUEUE_BYTES = 2 ** 20;

/** A row's weight: its strings (UTF-16 in memory) plus a fixed allowance for the object. */
const weight = (r: AuditRow) => 2 * (r.requestId.length + r.userId.length + r.params.length + (r.code?.length ?? 0)) + 96;

export function createAuditQueue(sqlite: Database, maxBytes = AUDIT_QUEUE_BYTES): AuditQueue {
  const insert = sqlite.prepare<unknown, [string, string, number, number, number | null, string | null, string]>(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
  );
  const update = sqlite.prepare<unknown, [number, number]>("UPDATE request_log SET duration_ms = ?1 WHERE id = ?2 AND status = 429");
  let rows: AuditRow[] = [];
  let updates: [number, number][] = [];
  let aggregated = new Map<string, { minute: number; userId: string; status: number; code: string | null; n: number }>();
  let used = 0;

  return {
    add(row) {
      const w = weight(row);
      if (used + w <= maxBytes) {
        rows.push(row);
        used += w;
        return true;
      }
      const minute = Math.floor(row.ts / MINUTE_MS) * MINUTE_MS;
      const key = JSON.stringify([minute, row.userId, row.status, row.code]);
      const group = aggregated.get(key);
      if (group) group.n++;
      else aggregated.set(key, { minute, userId: row.userId, status: row.status, code: row.code, n: 1 });
      return false;
    },
    setDuration(logId, durationMs) {
      if (used + 32 > maxBytes) return; // only a duration: past the bound it is the one thing given up
      updates.push([logId, durationMs]);
      used += 32;
    },
    flush() {
      if (rows.length + updates.length + aggregated.size === 0) return;
      sqlite.exec("BEGIN IMMEDIATE");
      try {
        for (const r of rows) insert.run(r.requestId, r.userId, r.ts, r.status, r.durationMs, r.code, r.params);
        for (const [id, ms] of updates) update.run(ms, id);
        for (const g of aggregated.values())
          insert.run("aggregated", g.userId, g.minute, g.status, null, g.code, JSON.stringify({ aggregated: g.n }));
        sqlite.exec("COMMIT");
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw err;
      }
      rows = [];
      updates = [];
      aggregated = new Map();
      used = 0;
    },
    pending: () => rows.length + updates.length + aggregated.size,
    bytes: () => used,
  };
}
