/**
 * Audit rows that meter nothing (a known user's 400/403/404, a 429's duration), kept in memory
 * and written in one transaction per flush instead of one write per request: while another
 * process holds the write lock, a request must not wait for it on the event loop (issue #12
 * item 7). Memory is bounded in bytes; past the bound, requests are counted per minute, user,
 * status and code and written as one row per group (request_id 'aggregated', params
 * {"aggregated":n}), never dropped. The queue is the policy, on both databases; each database
 * only writes a batch (db/sqlite/audit-statements.ts, db/pg/audit-statements.ts).
 */
import { MINUTE_MS } from "./windows.ts";

export interface AuditRow {
  requestId: string;
  userId: string;
  ts: number;
  status: number;
  code: string | null;
  params: string;
  /** Null until known: a 429 refused from a read is queued before its answer (meter-policy.ts). */
  durationMs: number | null;
}

/** Requests past the byte bound, counted per minute, user, status and code. */
export interface AggregateGroup {
  minute: number;
  userId: string;
  status: number;
  code: string | null;
  n: number;
}

/** What one flush writes, in one transaction: rows, durations of rows written whole at admission (429s, answers in hand: `[logId, ms]`) and groups. */
export interface AuditBatch {
  rows: AuditRow[];
  durations: [number, number][];
  groups: AggregateGroup[];
}

export interface AuditQueue {
  /** Queues a row; returns false when it was aggregated because the queue is full. */
  add(row: AuditRow): boolean;
  /** Queues the duration of a row already written whole in the meter's transaction (a 429, an answer in hand). */
  setDuration(logId: number, durationMs: number): void;
  /** Hands everything queued to `write`; if it throws, all of it stays queued for the next flush. */
  flush(write: (batch: AuditBatch) => void): void;
  /** As flush, for a database whose writes are async: what is queued meanwhile waits behind the batch. */
  flushAsync(write: (batch: AuditBatch) => Promise<void>): Promise<void>;
  /** Entries waiting (rows, updates and aggregate groups). */
  pending(): number;
  bytes(): number;
}

export const AUDIT_QUEUE_BYTES = 2 ** 20;

/** A row's weight: its strings (UTF-16 in memory) plus a fixed allowance for the object. */
const weight = (r: AuditRow) => 2 * (r.requestId.length + r.userId.length + r.params.length + (r.code?.length ?? 0)) + 96;
const DURATION_BYTES = 32;

export function createAuditQueue(maxBytes = AUDIT_QUEUE_BYTES): AuditQueue {
  let rows: AuditRow[] = [];
  let durations: [number, number][] = [];
  let groups = new Map<string, AggregateGroup>();
  let used = 0;
  let inFlight = 0;

  const pending = () => rows.length + durations.length + groups.size;
  // A batch being written still counts against the bound (`used`), so rows queued while it is
  // in flight cannot take the queue past it, however many flushes fail in a row.
  const take = (): { batch: AuditBatch; bytes: number } => {
    const taken = { batch: { rows, durations, groups: [...groups.values()] }, bytes: used };
    rows = [];
    durations = [];
    groups = new Map();
    inFlight = taken.bytes;
    return taken;
  };
  const written = ({ bytes }: { bytes: number }) => {
    used -= bytes;
    inFlight = 0;
  };
  /** A batch that was not written goes back in front of what came since (its groups merge). */
  const putBack = ({ batch }: { batch: AuditBatch }) => {
    rows = batch.rows.concat(rows);
    durations = batch.durations.concat(durations);
    const since = groups;
    groups = new Map(batch.groups.map((g) => [groupKey(g.minute, g.userId, g.status, g.code), g]));
    for (const [key, g] of since) {
      const earlier = groups.get(key);
      if (earlier) earlier.n += g.n;
      else groups.set(key, g);
    }
    inFlight = 0;
  };
  return {
    add(row) {
      const w = weight(row);
      if (used + w <= maxBytes) {
        rows.push(row);
        used += w;
        return true;
      }
      const minute = Math.floor(row.ts / MINUTE_MS) * MINUTE_MS;
      const key = groupKey(minute, row.userId, row.status, row.code);
      const group = groups.get(key);
      if (group) group.n++;
      else groups.set(key, { minute, userId: row.userId, status: row.status, code: row.code, n: 1 });
      return false;
    },
    setDuration(logId, durationMs) {
      if (used + DURATION_BYTES > maxBytes) return; // only a duration: past the bound it is the one thing given up
      durations.push([logId, durationMs]);
      used += DURATION_BYTES;
    },
    flush(write) {
      if (pending() === 0 || inFlight > 0) return;
      const taken = take();
      try {
        write(taken.batch);
        written(taken);
      } catch (err) {
        putBack(taken);
        throw err;
      }
    },
    async flushAsync(write) {
      // One batch in flight at a time: a second flush leaves what came since for the next one.
      if (pending() === 0 || inFlight > 0) return;
      const taken = take();
      try {
        await write(taken.batch);
        written(taken);
      } catch (err) {
        putBack(taken);
        throw err;
      }
    },
    pending,
    bytes: () => used,
  };
}

const groupKey = (minute: number, userId: string, status: number, code: string | null) => JSON.stringify([minute, userId, status, code]);
