/**
 * Child process for the cross-process concurrency test: opens the shared database file, waits for
 * the common start instant, calls admit() as fast as it can and prints how many were admitted.
 * Usage: bun test/support/metering/admit-worker.ts DB USER PER_MINUTE PER_DAY CALLS START_AT_MS
 */
import { openDatabase } from "../../../db/open.ts";
import { systemClock } from "../../../src/clock.ts";
import { createSqliteMeter } from "../../../src/metering/meter-sqlite.ts";

const [path, userId, perMinute, perDay, calls, startAt] = process.argv.slice(2);
const { sqlite } = openDatabase(path);
const limiter = createSqliteMeter(sqlite, systemClock);
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()));
let admitted = 0;
for (let i = 0; i < Number(calls); i++) {
  const r = await limiter.admit({
    userId,
    limits: { perMinute: Number(perMinute), perDay: Number(perDay) },
    requestId: `${process.pid}-${i}`,
    params: {},
  });
  if (r.ok) admitted++;
}
sqlite.close();
console.log(JSON.stringify({ admitted }));
