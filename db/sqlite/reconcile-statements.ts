/** reconcile.ts's statements on SQLite: each process's refund one BEGIN IMMEDIATE transaction. */
import type { Database } from "bun:sqlite";
import { NO_BOOT, perDay, type Boot, type ReconcilePort } from "../../src/metering/reconcile.ts";

export function sqliteReconcilePort(sqlite: Database): ReconcilePort {
  const boots = sqlite.prepare<Boot, []>("SELECT boot_id AS bootId, low_id AS lowId, seen_at AS seenAt FROM boots");
  const open = "FROM request_log WHERE id >= ?1 AND boot_id IS ?2 AND status IS NULL AND counted = 1";
  const rowsOf = sqlite.prepare<{ id: number; userId: string | null; ts: number }, [number, string | null, number]>(
    `SELECT id, user_id AS userId, ts ${open} AND ts < ?3`,
  );
  const anyOpen = sqlite.prepare<{ one: number }, [number, string | null]>(`SELECT 1 AS one ${open} LIMIT 1`);
  const refund = sqlite.prepare<unknown, [number]>("UPDATE request_log SET counted = 0, code = 'UNANSWERED' WHERE id = ?");
  const giveBack = sqlite.prepare<unknown, [string, number, number]>(
    "UPDATE usage_days SET admitted = max(0, admitted - ?3) WHERE user_id = ?1 AND day = ?2",
  );
  const forget = sqlite.prepare<unknown, [string]>("DELETE FROM boots WHERE boot_id = ?");
  const refundAll = sqlite.transaction((bootId: string, lowId: number, before: number) => {
    const id = bootId === NO_BOOT ? null : bootId;
    const rows = rowsOf.all(lowId, id, before);
    for (const row of rows) refund.run(row.id);
    for (const e of perDay(rows)) giveBack.run(e.userId, e.day, e.n);
    return { refunded: rows.length, stillOpen: anyOpen.get(lowId, id) !== null };
  });
  return {
    boots: () => boots.all(),
    refund: (bootId, lowId, before) => refundAll.immediate(bootId, lowId, before),
    forget: (bootId) => void forget.run(bootId),
  };
}
