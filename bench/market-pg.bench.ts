/**
 * Market data on PostgreSQL (a real one, started here): bulk series loading through drizzle's
 * select vs raw SQL value arrays, a cached and an uncached loadSeries, and import speed (rows/s)
 * of a generated 1m CSV through the PostgreSQL store and the SQLite one.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import * as schema from "../db/pg/schema.ts";
import { openPg } from "../db/pg/open.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { TestClock } from "../src/clock.ts";
import { openMarketStore } from "../src/market/open-store.ts";
import { tempDb } from "../test/support/market-db.ts";

const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!;
async function time(label: string, f: () => Promise<unknown>, n = 7): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  console.log(`${label.padEnd(58)} median ${median(ms).toFixed(1)} ms (n=${n})`);
}

const pg = await startPostgres();
const opened = await openPg(pg.url);
const store = openMarketStore({ kind: "postgres", sql: opened.sql });
await store.loadSample(new TestClock(0));
const symbols = (await store.getUniverse("sample"))!.symbols;
const db = drizzle({ client: opened.sql, schema });
const b = schema.bars;

await time("1m bars of 50 symbols: drizzle select (row objects)", () =>
  db
    .select({ symbol: b.symbol, ts: b.ts, off: b.offsetMin, close: b.close })
    .from(b)
    .where(and(inArray(b.symbol, symbols), eq(b.interval, "1m")))
    .orderBy(asc(b.symbol), asc(b.ts)),
);
await time("1m bars of 50 symbols: raw SQL .values()", () =>
  opened.sql`SELECT symbol, ts::float8, offset_min, close FROM bars WHERE symbol = ANY(${symbols}) AND interval = '1m' ORDER BY symbol, ts`.values(),
);
await time("1m bars of 50 symbols: raw SQL, array_agg per symbol", () =>
  opened.sql`SELECT symbol, array_agg(ts::float8 ORDER BY ts), array_agg(offset_min ORDER BY ts), array_agg(close ORDER BY ts) FROM bars
    WHERE symbol = ANY(${symbols}) AND interval = '1m' GROUP BY symbol`.values(),
);
let k = 0;
await time("loadSeries 50 symbols 1d, uncached (new key each time)", () => store.loadSeries([...symbols.slice(0, 49 - (k++ % 5))], "1d"));
await time("loadSeries 50 symbols 1d, cached", () => store.loadSeries(symbols, "1d"));

// Import: one symbol's 1m bars, 60 000 rows, into each store.
const rows: string[] = ["timestamp,open,high,low,close,volume"];
for (let i = 0; i < 60_000; i++) rows.push(`${new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()},10,11,9,10.5,${i}`);
const text = `${rows.join("\n")}\n`;
for (const [name, s] of [
  ["PostgreSQL", store],
  ["SQLite", openMarketStore({ kind: "sqlite", ...tempDb() })],
] as const) {
  const t0 = performance.now();
  const r = await s.importCsvSources([{ file: "BIG.csv", text }], { universe: "big", interval: "1m" });
  const ms = performance.now() - t0;
  console.log(`import 60 000 new 1m rows, ${name}: ${ms.toFixed(0)} ms, ${Math.round(r.inserted / (ms / 1000))} rows/s`);
}
await opened.close();
await pg.stop();
process.exit(0);
