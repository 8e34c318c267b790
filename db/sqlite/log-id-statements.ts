/** log-ids.ts's reads on SQLite: both on the rowid. */
import type { Database } from "bun:sqlite";
import type { LogIds } from "../../src/metering/log-ids.ts";

export function sqliteLogIds(sqlite: Database): LogIds {
  // Two subqueries, not min(id), max(id) in one: SQLite reads a lone min() or max() off the rowid's
  // ends, but both together scan the table (150 ms at a million rows, for every bisection step).
  const bounds = sqlite.prepare<{ min: number | null; max: number | null }, []>(
    "SELECT (SELECT min(id) FROM request_log) AS min, (SELECT max(id) FROM request_log) AS max",
  );
  const at = sqlite.prepare<{ id: number; ts: number }, [number]>("SELECT id, ts FROM request_log WHERE id >= ? ORDER BY id LIMIT 1");
  return {
    bounds: () => {
      const b = bounds.get();
      return b && b.min !== null && b.max !== null ? { min: b.min, max: b.max } : null;
    },
    atOrAfter: (id) => at.get(id),
  };
}
