/**
 * The market's statements on PostgreSQL (src/market/market-port.ts), shared by any number of
 * instances. Bars are read with raw parameterised SQL as value arrays: reading the 50 sample
 * symbols' 1m bars (187 500 rows) took 550 / 666 ms through drizzle's select (row objects, bigint
 * ts mapped per row) against 432 / 551 ms raw (bench/market-pg.bench.ts). Every market write takes
 * one transaction-level advisory lock first, so two instances importing at once cannot hand out
 * the same universe position or lose a version bump.
 */
import { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { INTERVALS, type Interval } from "../../src/engine/types.ts";
import type { Bar } from "../../src/market/bar.ts";
import { BarStage, emptyColumns, pushBar, type StagedColumns } from "../../src/market/bar-writer.ts";
import { DATA_VERSION_KEY } from "../../src/market/data-version.ts";
import type { BarRow, BarTime, MarketPort, MarketReads, MarketWrites, UniverseSource } from "../../src/market/market-port.ts";
import type { StoredKey } from "../../src/market/offset-clashes.ts";
import type { SampleSeries } from "../../src/market/sample-generator.ts";
import { advisoryXactLock } from "./advisory-lock.ts";
import { nullableTextArray, numberArray, textArray } from "./arrays.ts";

/** 'mkt' in ASCII (advisory-lock.ts). */
const LOCK_OBJECT = 0x6d6b74;

/**
 * Rows per unnest() statement (a choice, not tuned): 60 000 new 1m rows import at ~38 000 rows/s
 * against ~101 000 on SQLite (bench/market-pg.bench.ts).
 */
export const PG_BATCH = 5000;

/** The widest ts range asked for (bigint bounds beyond any bar). */
const EDGE = Number.MAX_SAFE_INTEGER;

/** Rows grouped by their first column, the symbol; `keep` the row as read (true) or without the symbol. */
const grouped = <T>(symbols: readonly string[], rows: [string, ...unknown[]][], keep = false): Map<string, T[]> => {
  const out = new Map<string, T[]>(symbols.map((s) => [s, []]));
  for (const r of rows) out.get(r[0])!.push((keep ? r : r.slice(1)) as T);
  return out;
};

function readsOn(q: SQL): MarketReads {
  return {
    async dataVersion() {
      const [r] = await q`SELECT value FROM settings WHERE key = ${DATA_VERSION_KEY}`;
      return r ? Number(r.value) : 0;
    },
    async setting(key) {
      const [r] = await q`SELECT value FROM settings WHERE key = ${key}`;
      return r ? (r.value as string) : null;
    },
    async universeNames() {
      const rows: [string][] = await q`SELECT name FROM universes ORDER BY name`.values();
      return rows.map((r) => r[0]);
    },
    async universe(name) {
      const [r] = await q`SELECT source FROM universes WHERE name = ${name}`;
      return r ? { source: (r.source === "synthetic" ? "synthetic" : "imported") as UniverseSource } : null;
    },
    async members(name) {
      return await q`SELECT symbol, position FROM universe_members WHERE universe = ${name} ORDER BY position`;
    },
    /** A loose index scan: one seek per (symbol, interval) pair, not a read of every bar. */
    async storedPairs() {
      const rows: [string, string][] = await q`
        WITH RECURSIVE p AS (
          (SELECT symbol, interval FROM bars ORDER BY symbol, interval LIMIT 1)
          UNION ALL
          SELECT n.symbol, n.interval FROM p, LATERAL (
            SELECT symbol, interval FROM bars WHERE (symbol, interval) > (p.symbol, p.interval) ORDER BY symbol, interval LIMIT 1) n)
        SELECT symbol, interval FROM p`.values();
      return rows.filter((r): r is [string, Interval] => (INTERVALS as readonly string[]).includes(r[1]));
    },
    async barTimes(symbols, interval) {
      const rows = await q`SELECT symbol, ts::float8, offset_min FROM bars
        WHERE symbol = ANY(${textArray([...symbols])}::text[]) AND interval = ${interval} ORDER BY symbol, ts`.values();
      return grouped<BarTime>(symbols, rows);
    },
    async barRange(symbols, interval, from, to) {
      const rows = await q`SELECT symbol, ts::float8, offset_min, close FROM bars
        WHERE symbol = ANY(${textArray([...symbols])}::text[]) AND interval = ${interval}
          AND ts BETWEEN ${Math.max(from, -EDGE)} AND ${Math.min(to, EDGE)} ORDER BY symbol, ts`.values();
      return grouped<BarRow>(symbols, rows, true);
    },
    /** Three index seeks per symbol (first, last, count), one statement for all; symbols without bars drop out of the joins. */
    async barSpans(symbols, interval) {
      const rows: [string, number, number, number, number, number][] = await q`
        SELECT s.symbol, f.ts::float8, f.offset_min, l.ts::float8, l.offset_min, c.n
          FROM unnest(${textArray([...symbols])}::text[]) AS s(symbol)
          CROSS JOIN LATERAL (SELECT ts, offset_min FROM bars WHERE symbol = s.symbol AND interval = ${interval} ORDER BY ts LIMIT 1) f
          CROSS JOIN LATERAL (SELECT ts, offset_min FROM bars WHERE symbol = s.symbol AND interval = ${interval} ORDER BY ts DESC LIMIT 1) l
          CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM bars WHERE symbol = s.symbol AND interval = ${interval}) c`.values();
      return new Map(rows.map(([s, ft, fo, lt, lo, n]) => [s, { first: [ft, fo] as BarTime, last: [lt, lo] as BarTime, bars: n }]));
    },
    async calendar(symbols, interval) {
      const rows: [number][] = await q`SELECT DISTINCT ts::float8 FROM bars
        WHERE symbol = ANY(${textArray([...symbols])}::text[]) AND interval = ${interval} ORDER BY 1`.values();
      return rows.map((r) => r[0]);
    },
    async metadata(symbols) {
      const rows: [string, string | null, string | null, string | null][] = await q`
        SELECT symbol, name, sector, industry FROM symbol_metadata WHERE symbol = ANY(${textArray([...symbols])}::text[])`.values();
      return new Map(rows.map(([symbol, name, sector, industry]) => [symbol, { name, sector, industry }]));
    },
  };
}

const unnested = (tx: SQL, b: StagedColumns) => tx`
  SELECT * FROM unnest(${textArray(b.symbol)}::text[], ${numberArray(b.ts)}::bigint[], ${numberArray(b.offsetMin)}::int[],
    ${numberArray(b.open)}::float8[], ${numberArray(b.high)}::float8[], ${numberArray(b.low)}::float8[],
    ${numberArray(b.close)}::float8[], ${numberArray(b.volume)}::float8[])
    AS t(symbol, ts, offset_min, open, high, low, close, volume)`;

/** Upserts a batch; identical rows are not rewritten. xmax = 0 marks a fresh row. */
async function upsertBatch(tx: SQL, interval: Interval, b: StagedColumns): Promise<{ inserted: number; updated: number }> {
  const [r] = await tx`
    WITH up AS (
      INSERT INTO bars (symbol, interval, ts, offset_min, open, high, low, close, volume)
        SELECT symbol, ${interval}, ts, offset_min, open, high, low, close, volume FROM (${unnested(tx, b)}) s
      ON CONFLICT (symbol, interval, ts) DO UPDATE SET
        offset_min = excluded.offset_min, open = excluded.open, high = excluded.high,
        low = excluded.low, close = excluded.close, volume = excluded.volume
      WHERE (bars.offset_min, bars.open, bars.high, bars.low, bars.close, bars.volume)
        IS DISTINCT FROM (excluded.offset_min, excluded.open, excluded.high, excluded.low, excluded.close, excluded.volume)
      RETURNING (xmax = 0) AS fresh)
    SELECT count(*) FILTER (WHERE fresh)::int AS inserted, count(*) FILTER (WHERE NOT fresh)::int AS updated FROM up`;
  return { inserted: r.inserted, updated: r.updated };
}

/** Every series' bars at `interval`, plainly inserted in batches of PG_BATCH across symbols (known to be absent). */
async function insertSeries(tx: SQL, interval: Interval, series: readonly SampleSeries[], pick: (s: SampleSeries) => Bar[]) {
  const insert = (b: StagedColumns) => tx`INSERT INTO bars (symbol, interval, ts, offset_min, open, high, low, close, volume)
    SELECT symbol, ${interval}, ts, offset_min, open, high, low, close, volume FROM (${unnested(tx, b)}) s`;
  let batch = emptyColumns();
  for (const s of series) {
    for (const b of pick(s)) {
      pushBar(batch, s.symbol, b);
      if (batch.ts.length === PG_BATCH) {
        await insert(batch);
        batch = emptyColumns();
      }
    }
  }
  if (batch.ts.length > 0) await insert(batch);
}

function writesOn(tx: SQL): MarketWrites {
  return {
    ...readsOn(tx),
    async createUniverse(name, source, now) {
      await tx`INSERT INTO universes (name, created_at, source) VALUES (${name}, ${now}, ${source}) ON CONFLICT (name) DO NOTHING`;
    },
    async addMembers(name, symbols, first) {
      if (symbols.length === 0) return;
      const positions = symbols.map((_, i) => first + i);
      await tx`INSERT INTO universe_members (universe, symbol, position)
        SELECT ${name}, symbol, position FROM unnest(${textArray([...symbols])}::text[], ${numberArray(positions)}::int[]) AS t(symbol, position)`;
    },
    async bumpDataVersion() {
      const [r] = await tx`INSERT INTO settings (key, value) VALUES (${DATA_VERSION_KEY}, '1')
        ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text RETURNING value`;
      return Number(r.value);
    },
    async setSetting(key, value) {
      await tx`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    },
    async storedKeys(symbols, interval) {
      const rows: [string, number, number][] = await tx`SELECT symbol, ts::float8, offset_min FROM bars
        WHERE symbol = ANY(${textArray([...symbols])}::text[]) AND interval = ${interval}`.values();
      const out = new Map<string, StoredKey[]>(symbols.map((s) => [s, []]));
      for (const [s, ts, offsetMin] of rows) out.get(s)!.push({ ts, offsetMin });
      return out;
    },
    async deleteBar(symbol, interval, ts) {
      await tx`DELETE FROM bars WHERE symbol = ${symbol} AND interval = ${interval} AND ts = ${ts}`;
    },
    async removeMembers(name, symbols) {
      const rows = await tx`DELETE FROM universe_members
        WHERE universe = ${name} AND symbol = ANY(${textArray([...symbols])}::text[]) RETURNING symbol`;
      return rows.length;
    },
    async deleteUniverse(name) {
      await tx`DELETE FROM universe_members WHERE universe = ${name}`;
      await tx`DELETE FROM universes WHERE name = ${name}`;
    },
    async deleteBars(symbols) {
      const [r] = await tx`WITH d AS (DELETE FROM bars WHERE symbol = ANY(${textArray([...symbols])}::text[]) RETURNING 1)
        SELECT count(*)::int AS n FROM d`;
      return r.n as number;
    },
    async upsertMetadata(rows, now) {
      if (rows.length === 0) return 0;
      const [r] = await tx`WITH up AS (
        INSERT INTO symbol_metadata (symbol, name, sector, industry, updated_at)
          SELECT symbol, name, sector, industry, ${now} FROM unnest(
            ${textArray(rows.map((x) => x.symbol))}::text[], ${nullableTextArray(rows.map((x) => x.name))}::text[],
            ${nullableTextArray(rows.map((x) => x.sector))}::text[], ${nullableTextArray(rows.map((x) => x.industry))}::text[])
            AS t(symbol, name, sector, industry)
        ON CONFLICT (symbol) DO UPDATE SET name = excluded.name, sector = excluded.sector, industry = excluded.industry,
          updated_at = excluded.updated_at
        WHERE (symbol_metadata.name, symbol_metadata.sector, symbol_metadata.industry)
          IS DISTINCT FROM (excluded.name, excluded.sector, excluded.industry)
        RETURNING 1)
        SELECT count(*)::int AS n FROM up`;
      return r.n as number;
    },
    async upsertStaged(stage, interval) {
      let inserted = 0;
      let updated = 0;
      for (const batch of stage.batches(PG_BATCH)) {
        const n = await upsertBatch(tx, interval, batch);
        inserted += n.inserted;
        updated += n.updated;
      }
      return { inserted, updated };
    },
    async replaceBars(series) {
      await tx`DELETE FROM bars WHERE symbol = ANY(${textArray(series.map((s) => s.symbol))}::text[])`;
      await insertSeries(tx, "1d", series, (s) => s.daily);
      await insertSeries(tx, "1m", series, (s) => s.minute);
    },
  };
}

/** The market port over a PostgreSQL pool. */
export function pgMarketPort(sql: SQL): MarketPort {
  return {
    kind: "postgres",
    ...readsOn(sql),
    locked: (write) =>
      sql.begin(async (tx) => {
        // A large file, or waiting for another instance's load, may outlast the pool's statement timeout.
        await tx`SET LOCAL statement_timeout = 0`;
        await advisoryXactLock(tx, LOCK_OBJECT);
        return write(writesOn(tx));
      }),
    openStage() {
      // An unnamed database is a private temporary file: the stage never touches the shared store.
      const scratch = new Database("");
      return { stage: new BarStage(scratch), close: () => scratch.close() };
    },
    threadPath: null,
  };
}
