/**
 * The PostgreSQL MarketStore (README.md § PostgreSQL), shared by any number of instances. Cold paths
 * (universes, settings) go through drizzle; bars are read with raw parameterised SQL as value
 * arrays: reading the 50 sample symbols' 1m bars (187 500 rows) took 550 / 666 ms through
 * drizzle's select (row objects, bigint ts mapped per row) against 432 / 551 ms raw (two runs of
 * bench/market-pg.bench.ts on a shared 2-core machine); array_agg per symbol was no faster (579 ms).
 *
 * The data version is read at most once a second (cached in between), so an import through any
 * instance reaches every other instance's caches within about a second, at the cost of one tiny
 * query per second per instance; an import through this one is seen at once.
 */
import type { SQL } from "bun";
import { asc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import * as schema from "../../../db/pg/schema.ts";
import { INTERVALS, type Interval } from "../../engine/types.ts";
import { BarCoverage, type TimestampRows } from "../bar-coverage.ts";
import { fileReadables, textReadables } from "../csv-import.ts";
import { chooseSourceInterval } from "../intervals.ts";
import { assembleSeries, type LoadedSeries } from "../series.ts";
import type { MarketStore } from "../store.ts";
import type { Universe } from "../universes.ts";
import { textArray } from "../../../db/pg/arrays.ts";
import { importIntoPg } from "./pg-import.ts";
import { loadSamplePg } from "./pg-sample.ts";
import { DATA_VERSION_KEY } from "../data-version.ts";

/** How long a data version read is trusted before it is read again. */
export const VERSION_TTL_MS = 1000;
const SERIES_CACHE_MAX = 64;

export function pgMarketStore(sql: SQL, opts: { versionTtlMs?: number } = {}): MarketStore {
  const db = drizzle({ client: sql, schema });
  const ttl = opts.versionTtlMs ?? VERSION_TTL_MS;
  let version: { value: number; at: number } | null = null;
  let reading: Promise<number> | null = null;
  const seriesCache = new Map<string, LoadedSeries>();

  const readVersion = async (): Promise<number> => {
    const rows = await db.select({ value: schema.settings.value }).from(schema.settings).where(eq(schema.settings.key, DATA_VERSION_KEY));
    return rows[0] ? Number(rows[0].value) : 0;
  };
  const dataVersion = (): Promise<number> => {
    if (version && performance.now() - version.at < ttl) return Promise.resolve(version.value);
    reading ??= readVersion()
      .then((value) => {
        // Never step back: a bump seen through this instance may be newer than a read in flight.
        version = { value: Math.max(value, version?.value ?? 0), at: performance.now() };
        return version.value;
      })
      .finally(() => (reading = null));
    return reading;
  };
  const bumped = (value: number) => {
    version = { value: Math.max(value, version?.value ?? 0), at: performance.now() };
  };

  const getUniverse = async (name: string): Promise<Universe | null> => {
    const [u] = await db.select().from(schema.universes).where(eq(schema.universes.name, name));
    if (!u) return null;
    const members = await db
      .select({ symbol: schema.universeMembers.symbol })
      .from(schema.universeMembers)
      .where(eq(schema.universeMembers.universe, name))
      .orderBy(asc(schema.universeMembers.position));
    return { name: u.name, symbols: members.map((m) => m.symbol), source: u.source === "synthetic" ? "synthetic" : "imported" };
  };

  /** Every stored (symbol, interval) pair by a loose index scan: one seek per pair, not a read of every bar. */
  const storedIntervals = async (): Promise<Map<string, Interval[]>> => {
    const rows: [string, string][] = await sql`
      WITH RECURSIVE p AS (
        (SELECT symbol, interval FROM bars ORDER BY symbol, interval LIMIT 1)
        UNION ALL
        SELECT n.symbol, n.interval FROM p, LATERAL (
          SELECT symbol, interval FROM bars WHERE (symbol, interval) > (p.symbol, p.interval) ORDER BY symbol, interval LIMIT 1) n)
      SELECT symbol, interval FROM p`.values();
    const bySymbol = new Map<string, Set<string>>();
    for (const [s, iv] of rows) (bySymbol.get(s) ?? bySymbol.set(s, new Set()).get(s)!).add(iv);
    const out = new Map<string, Interval[]>();
    for (const s of [...bySymbol.keys()].sort())
      out.set(
        s,
        INTERVALS.filter((iv) => bySymbol.get(s)!.has(iv)),
      );
    return out;
  };

  /**
   * Stored intervals of the given symbols only (an index probe per symbol and interval); [] when none.
   * LATERAL … LIMIT 1, not EXISTS: the planner hashed every bar for EXISTS (the sample: 270-580 ms, here 8-80 ms).
   */
  const storedOf = async (symbols: readonly string[]): Promise<Map<string, Interval[]>> => {
    const unique = [...new Set(symbols)];
    const rows: [string, string][] = await sql`
      SELECT s, i FROM unnest(${textArray(unique)}::text[]) s CROSS JOIN unnest(${textArray([...INTERVALS])}::text[]) i
      CROSS JOIN LATERAL (SELECT 1 FROM bars WHERE symbol = s AND interval = i LIMIT 1) stored`.values();
    const out = new Map<string, Interval[]>(unique.map((s) => [s, []]));
    for (const [s, iv] of rows) out.get(s)!.push(iv as Interval);
    for (const list of out.values()) list.sort((a, b) => INTERVALS.indexOf(a) - INTERVALS.indexOf(b));
    return out;
  };

  /** Rows of `symbols` at `source`, grouped by symbol, in ts order. */
  async function barsOf<T extends unknown[]>(symbols: string[], source: Interval, withClose: boolean): Promise<Map<string, T[]>> {
    const rows: [string, ...unknown[]][] = withClose
      ? await sql`SELECT symbol, ts::float8, offset_min, close FROM bars
          WHERE symbol = ANY(${textArray(symbols)}::text[]) AND interval = ${source} ORDER BY symbol, ts`.values()
      : await sql`SELECT symbol, ts::float8, offset_min FROM bars
          WHERE symbol = ANY(${textArray(symbols)}::text[]) AND interval = ${source} ORDER BY symbol, ts`.values();
    const out = new Map<string, T[]>(symbols.map((s) => [s, []]));
    for (const r of rows) out.get(r[0])!.push(r.slice(1) as T);
    return out;
  }

  const loadSeries = async (symbols: readonly string[], interval: Interval): Promise<LoadedSeries> => {
    const key = `${await dataVersion()}|${interval}|${symbols.join(",")}`;
    const hit = seriesCache.get(key);
    if (hit) {
      seriesCache.delete(key);
      seriesCache.set(key, hit);
      return hit;
    }
    const stored = await storedOf(symbols);
    const union = INTERVALS.filter((iv) => [...stored.values()].some((l) => l.includes(iv)));
    const source = chooseSourceInterval(interval, union);
    const holders = source ? [...stored].filter(([, l]) => l.includes(source)).map(([s]) => s) : [];
    const rows = source && holders.length ? await barsOf<[number, number, number]>(holders, source, true) : new Map();
    const result = assembleSeries(symbols, interval, stored, (s) => rows.get(s) ?? []);
    seriesCache.set(key, result);
    if (seriesCache.size > SERIES_CACHE_MAX) seriesCache.delete(seriesCache.keys().next().value!);
    return result;
  };

  const importDeps = { sql, getUniverse, dataVersion, bumped };

  return {
    kind: "postgres",
    dataVersion,
    async listUniverses() {
      const rows = await db.select({ name: schema.universes.name }).from(schema.universes).orderBy(asc(schema.universes.name));
      return rows.map((r) => r.name);
    },
    getUniverse,
    knownSymbols: async () => [...(await storedIntervals()).keys()],
    storedIntervals,
    async barCoverage(v) {
      return new BarCoverage(
        v,
        await storedIntervals(),
        (symbols, source) => barsOf<[number, number]>(symbols, source, false) as Promise<Map<string, TimestampRows>>,
      );
    },
    loadSeries,
    threadSource: () => null,
    importCsvFiles: (paths, o) => importIntoPg(importDeps, fileReadables(paths), o),
    importCsvSources: (sources, o) => importIntoPg(importDeps, textReadables(sources), o),
    loadSample: (clock) => loadSamplePg(importDeps, clock),
  };
}
