/**
 * Unauthenticated and invalid-token requests, counted per UTC minute and error code (DECISIONS §6)
 * instead of one audit row each: a flood of them must not grow the database, nor take the write
 * lock once per request. Counts gather in memory and are written in one transaction per flush
 * (every second, and at shutdown); a crash loses at most that second of counts.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { MINUTE_MS } from "./windows.ts";

export interface UnauthenticatedCounter {
  add(code: string): void;
  /** Writes what has gathered; on failure (locked, full disk) keeps it for the next flush. */
  flush(): void;
  /** Counts not yet written (tests, diagnostics). */
  pending(): number;
}

export function createUnauthenticatedCounter(sqlite: Database, clock: Clock): UnauthenticatedCounter {
  const upsert = sqlite.prepare<unknown, [number, string, number]>(
    "INSERT INTO unauthenticated_counts (minute, code, count) VALUES (?1, ?2, ?3) ON CONFLICT (minute, code) DO UPDATE SET count = count + ?3",
  );
  // Keyed by "minute code"; codes are fixed error codes, never request data.
  let gathered = new Map<string, number>();
  let total = 0;
  return {
    add(code) {
      const minute = Math.floor(clock.now() / MINUTE_MS) * MINUTE_MS;
      const key = `${minute} ${code}`;
      gathered.set(key, (gathered.get(key) ?? 0) + 1);
      total++;
    },
    flush() {
      if (total === 0) return;
      const batch = gathered;
      sqlite.exec("BEGIN IMMEDIATE");
      try {
        for (const [key, n] of batch) {
          const space = key.indexOf(" ");
          upsert.run(Number(key.slice(0, space)), key.slice(space + 1), n);
        }
        sqlite.exec("COMMIT");
        gathered = new Map();
        total = 0;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw err;
      }
    },
    pending: () => total,
  };
}
