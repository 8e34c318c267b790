/**
 * Writing market data to PostgreSQL inside the caller's transaction: bars (upserted or plainly
 * inserted, in unnest() batches), universe extension and the data-version bump. Every market
 * write takes one transaction-level advisory lock first, so two instances importing at once
 * cannot hand out the same universe position or lose a version bump.
 */
import type { SQL } from "bun";
import { advisoryXactLock } from "../../../db/pg/advisory-lock.ts";
import type { Interval } from "../../engine/types.ts";
import type { StagedColumns } from "../bar-writer.ts";
import { DATA_VERSION_KEY } from "../data-version.ts";
import { missingSymbols, type UniverseSource } from "../universes.ts";
import { numberArray, textArray } from "../../../db/pg/arrays.ts";

/** 'mkt' in ASCII (db/pg/advisory-lock.ts). */
const LOCK_OBJECT = 0x6d6b74;

/**
 * Rows per unnest() statement (a choice, not tuned): 60 000 new 1m rows import at ~38 000 rows/s
 * against ~101 000 on SQLite (bench/market-pg.bench.ts).
 */
export const PG_BATCH = 5000;

export async function lockMarket(tx: SQL): Promise<void> {
  await advisoryXactLock(tx, LOCK_OBJECT);
}

const unnested = (tx: SQL, b: StagedColumns) => tx`
  SELECT * FROM unnest(${textArray(b.symbol)}::text[], ${numberArray(b.ts)}::bigint[], ${numberArray(b.offsetMin)}::int[],
    ${numberArray(b.open)}::float8[], ${numberArray(b.high)}::float8[], ${numberArray(b.low)}::float8[],
    ${numberArray(b.close)}::float8[], ${numberArray(b.volume)}::float8[])
    AS t(symbol, ts, offset_min, open, high, low, close, volume)`;

/**
 * Upserts a batch keyed (symbol, interval, ts); identical rows are not rewritten. Returns how many
 * were inserted and how many updated (the rest were unchanged). xmax = 0 marks a fresh row.
 */
export async function upsertBars(tx: SQL, interval: Interval, b: StagedColumns): Promise<{ inserted: number; updated: number }> {
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

/** Plain inserts for bars known to be absent (the sample after its old bars were deleted). */
export async function insertBars(tx: SQL, interval: Interval, b: StagedColumns): Promise<void> {
  await tx`INSERT INTO bars (symbol, interval, ts, offset_min, open, high, low, close, volume)
    SELECT symbol, ${interval}, ts, offset_min, open, high, low, close, volume FROM (${unnested(tx, b)}) s`;
}

/** Creates the universe if missing and appends the symbols it lacks, in order; returns those appended. */
export async function extendUniversePg(
  tx: SQL,
  name: string,
  symbols: readonly string[],
  source: UniverseSource,
  now: number,
): Promise<string[]> {
  await tx`INSERT INTO universes (name, created_at, source) VALUES (${name}, ${now}, ${source}) ON CONFLICT (name) DO NOTHING`;
  const rows: { symbol: string; position: number }[] = await tx`SELECT symbol, position FROM universe_members WHERE universe = ${name}`;
  const appended = missingSymbols(
    rows.map((r) => r.symbol),
    symbols,
  );
  let next = rows.reduce((m, r) => Math.max(m, r.position), -1);
  if (appended.length > 0) {
    const positions = appended.map(() => ++next);
    await tx`INSERT INTO universe_members (universe, symbol, position)
      SELECT ${name}, symbol, position FROM unnest(${textArray(appended)}::text[], ${numberArray(positions)}::int[]) AS t(symbol, position)`;
  }
  return appended;
}

/** Increments the data version inside the writing transaction; returns the new value. */
export async function bumpDataVersionPg(tx: SQL): Promise<number> {
  const [r] = await tx`INSERT INTO settings (key, value) VALUES (${DATA_VERSION_KEY}, '1')
    ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text RETURNING value`;
  return Number(r.value);
}
