/** log-ids.ts's reads on SQLite: both on the rowid. */
import type { Database } from "bun:sqlite";
import type { LogIds } from "../../src/metering/log-ids.ts";

export function sqliteLogIds(sqlite: Database): LogIds {
  const bounds = sqlite.prepare<{ min: number | null; max: number | null }, []>("SELECT min(id) AS min, max(id) AS max FROM request_log");
  const at = sqlite.prepare<{ id: number; ts: number }, [number]>("SELECT id, ts FROM request_log WHERE id >= ? ORDER BY id LIMIT 1");
  return {
    bounds: () => {
      const b = bounds.get();
      return b && b.min !== null && b.max !== null ? { min: b.min, max: b.max } : null;
    },
    atOrAfter: (id) => at.get(id),
  };
}
