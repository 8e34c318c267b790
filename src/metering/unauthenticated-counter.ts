/**
 * Unauthenticated and invalid-token requests, counted per UTC minute and error code (docs/api.md § The audit log)
 * instead of one audit row each: a flood of them must not grow the database, nor take the write
 * lock once per request. Counts gather in memory and are written in one transaction per flush
 * (every second, and at shutdown); a crash loses at most that second of counts. The counting is
 * the policy, on both databases; each database only writes the counts it is handed.
 */
import type { Clock } from "../clock.ts";
import { MINUTE_MS } from "./windows.ts";

export interface MinuteCount {
  minute: number;
  /** A fixed error code, never request data. */
  code: string;
  count: number;
}

export interface UnauthenticatedCounter {
  add(code: string): void;
  /** Hands what has gathered to `write`; if it throws (locked, full disk) the counts stay for the next flush. */
  flush(write: (counts: MinuteCount[]) => void): void;
  /** As flush, for a database whose writes are async: counts added meanwhile add to what failed. */
  flushAsync(write: (counts: MinuteCount[]) => Promise<void>): Promise<void>;
  /** Counts not yet written (tests, diagnostics). */
  pending(): number;
}

export function createUnauthenticatedCounter(clock: Clock): UnauthenticatedCounter {
  let gathered = new Map<number, Map<string, number>>();
  let total = 0;

  const add = (minute: number, code: string, n: number) => {
    let codes = gathered.get(minute);
    if (!codes) gathered.set(minute, (codes = new Map()));
    codes.set(code, (codes.get(code) ?? 0) + n);
    total += n;
  };
  const take = (): MinuteCount[] => {
    const counts: MinuteCount[] = [];
    for (const [minute, codes] of gathered) for (const [code, count] of codes) counts.push({ minute, code, count });
    gathered = new Map();
    total = 0;
    return counts;
  };
  const putBack = (counts: MinuteCount[]) => {
    for (const c of counts) add(c.minute, c.code, c.count);
  };

  return {
    add(code) {
      add(Math.floor(clock.now() / MINUTE_MS) * MINUTE_MS, code, 1);
    },
    flush(write) {
      if (total === 0) return;
      const counts = take();
      try {
        write(counts);
      } catch (err) {
        putBack(counts);
        throw err;
      }
    },
    async flushAsync(write) {
      if (total === 0) return;
      const counts = take();
      try {
        await write(counts);
      } catch (err) {
        putBack(counts);
        throw err;
      }
    },
    pending: () => total,
  };
}
