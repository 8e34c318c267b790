/**
 * Requests admitted but never answered because their process died (SIGKILL, power loss, OOM) stay
 * counted with no status. At start the server refunds them (docs/api.md § Metering: a crash before
 * the answer is a server fault): counted 0, code UNANSWERED, and the day's count given back, in one
 * transaction.
 *
 * Only rows of processes that are certainly gone are touched: a live process's in-flight rows
 * must keep counting. A row's process is gone when its boot id (boot.ts) names this host and a
 * pid that no longer runs; rows that cannot be checked that way (another host name, rows from
 * before boot ids) are refunded once older than STALE_OPEN_MS, longer than any request can take.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { bootIsGone } from "./boot.ts";
import { utcDayStart } from "./windows.ts";

/** An open row older than this belongs to no live request, whoever admitted it. */
export const STALE_OPEN_MS = 3600_000;

export interface Reconciled {
  /** Requests refunded. */
  refunded: number;
  /** Distinct processes they came from. */
  processes: number;
}

export function reconcileUnanswered(sqlite: Database, selfBootId: string, clock: Clock): Reconciled {
  // The partial index request_log_open_idx holds only open rows, so this reads a handful of entries.
  const openBoots = sqlite.prepare<{ bootId: string | null }, []>(
    "SELECT DISTINCT boot_id AS bootId FROM request_log WHERE status IS NULL AND counted = 1",
  );
  const rowsOf = sqlite.prepare<{ id: number; userId: string | null; ts: number }, [string | null, number]>(
    "SELECT id, user_id AS userId, ts FROM request_log WHERE boot_id IS ?1 AND status IS NULL AND counted = 1 AND (?2 = 0 OR ts < ?2)",
  );
  const refund = sqlite.prepare<unknown, [number]>("UPDATE request_log SET counted = 0, code = 'UNANSWERED' WHERE id = ?");
  const giveBack = sqlite.prepare<unknown, [string, number, number]>(
    "UPDATE usage_days SET admitted = max(0, admitted - ?3) WHERE user_id = ?1 AND day = ?2",
  );
  sqlite.exec("BEGIN IMMEDIATE");
  try {
    const staleBefore = clock.now() - STALE_OPEN_MS;
    let refunded = 0;
    let processes = 0;
    for (const { bootId } of openBoots.all()) {
      if (bootId === selfBootId) continue;
      // 0 = every open row of a process known to be gone; else only those past the age bound.
      const rows = rowsOf.all(bootId, bootId !== null && bootIsGone(bootId, selfBootId) ? 0 : staleBefore);
      if (rows.length === 0) continue;
      processes++;
      const perDay = new Map<string, { userId: string; day: number; n: number }>();
      for (const row of rows) {
        refund.run(row.id);
        refunded++;
        if (row.userId === null) continue;
        const day = utcDayStart(row.ts);
        const key = `${row.userId}\u0000${day}`;
        const entry = perDay.get(key) ?? { userId: row.userId, day, n: 0 };
        entry.n++;
        perDay.set(key, entry);
      }
      for (const e of perDay.values()) giveBack.run(e.userId, e.day, e.n);
    }
    sqlite.exec("COMMIT");
    return { refunded, processes };
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    throw err;
  }
}
