/**
 * Child process for the PostgreSQL cross-process test: its own pool, waits for the common start
 * instant, fires CALLS admits at once and prints how many were admitted.
 * Usage: bun test/support/metering/admit-worker-pg.ts URL USER PER_MINUTE PER_DAY CALLS START_AT_MS
 */
import { createPgPool } from "../../../db/pg/open.ts";
import { systemClock } from "../../../src/clock.ts";
import { createPgMeter } from "../../../src/metering/meter-pg.ts";

const [url, userId, perMinute, perDay, calls, startAt] = process.argv.slice(2);
const sql = createPgPool(url!, { poolSize: 5 });
const limiter = createPgMeter(sql, systemClock);
const limits = { perMinute: Number(perMinute), perDay: Number(perDay) };
await sql`SELECT 1`; // connected before the start instant
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()));
const results = await Promise.all(
  Array.from({ length: Number(calls) }, (_, i) => limiter.admit({ userId: userId!, limits, requestId: `${process.pid}-${i}`, params: {} })),
);
await sql.close();
console.log(JSON.stringify({ admitted: results.filter((r) => r.ok).length }));
