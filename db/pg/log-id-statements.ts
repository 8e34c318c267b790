/** log-ids.ts's reads on PostgreSQL: both on the primary key. */
import type { SQL } from "bun";
import type { LogIds } from "../../src/metering/log-ids.ts";

export function pgLogIds(sql: SQL): LogIds {
  return {
    async bounds() {
      const [b] = (await sql`SELECT min(id)::float8 AS min, max(id)::float8 AS max FROM request_log`) as {
        min: number | null;
        max: number | null;
      }[];
      return b && b.min !== null && b.max !== null ? { min: b.min, max: b.max } : null;
    },
    // ORDER BY the column, not the float8 output named like it: that would sort every row from `id` on.
    async atOrAfter(id) {
      const [r] =
        (await sql`SELECT id::float8 AS id, ts::float8 AS ts FROM request_log WHERE id >= ${id} ORDER BY request_log.id LIMIT 1`) as {
          id: number;
          ts: number;
        }[];
      return r ?? null;
    },
  };
}
