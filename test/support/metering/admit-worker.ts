/**
 * Child process for the meter's cross-process case (src/metering/meter-contract.test.ts): its own
 * connection to the shared database (a SQLite file or a PostgreSQL pool), prints `ready`, waits for
 * a line on stdin (the parent sends it to every worker at once), fires CALLS admits for each user
 * and prints how many of each were admitted.
 * Usage: bun test/support/metering/admit-worker.ts sqlite|postgres PATH_OR_URL CALLS USER:PER_MINUTE:PER_DAY...
 */
import { openDatabase } from "../../../db/sqlite/open.ts";
import { createPgPool } from "../../../db/pg/open.ts";
import { systemClock } from "../../../src/clock.ts";
import type { Meter } from "../../../src/metering/meter.ts";
import { createPgMeter } from "../../../src/metering/meters.ts";
import { createSqliteMeter } from "../../../src/metering/meters.ts";

const [kind, target, calls, ...specs] = process.argv.slice(2);
const users = specs.map((s) => {
  const [userId, perMinute, perDay] = s.split(":");
  return { userId: userId!, limits: { perMinute: Number(perMinute), perDay: Number(perDay) } };
});
let meter: Meter;
let close: () => Promise<void>;
if (kind === "sqlite") {
  const { sqlite } = openDatabase(target!);
  meter = createSqliteMeter(sqlite, systemClock);
  close = async () => sqlite.close();
} else {
  const sql = createPgPool(target!, { poolSize: 5 });
  await sql`SELECT 1`; // connected before the start
  meter = createPgMeter(sql, systemClock);
  close = () => sql.close();
}
console.log("ready");
await Bun.stdin.stream().getReader().read();
// SQLite's admits run one after another (each a synchronous transaction); PostgreSQL's at once.
const results = await Promise.all(
  Array.from({ length: Number(calls) }, (_, i) =>
    users.map(async ({ userId, limits }) => {
      const r = await meter.admit({ userId, limits, requestId: `${process.pid}-${userId}-${i}`, params: {} });
      return r.ok ? userId : null;
    }),
  ).flat(),
);
// A 429 refused from a read while another worker held SQLite's lock waits in the audit queue, as a server's stop writes it.
await meter.flush();
await close();
const admitted: Record<string, number> = Object.fromEntries(users.map((u) => [u.userId, 0]));
for (const userId of results) if (userId !== null) admitted[userId]!++;
console.log(JSON.stringify({ admitted }));
