/** Writing bars: staged imports (upserts keyed (symbol, interval, ts)) and plain bulk inserts. */
import type { Database, Statement } from "bun:sqlite";
import type { Interval } from "../engine/types.ts";
import type { Bar } from "./bar.ts";
import type { GapCount } from "./csv-spacing.ts";

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** One staged row: a bar of `symbol`, the line it came from and its timestamp as written. */
export interface StagedBar extends Bar {
  symbol: string;
  line: number;
  rawTs: string;
}

const STAGE_COLUMNS = "symbol, ts, offset_min, open, high, low, close, volume, line, raw_ts";
/** Rows per multi-row INSERT into the stage (as BulkInserter below). */
const STAGE_BATCH = 25;

/**
 * A file's bars on their way in: staged in a TEMP table (its own file, so the shared database is
 * not locked while a large CSV is read and checked, and memory stays flat), checked there for
 * duplicates and spacing, then upserted into `bars` in one statement inside the caller's
 * transaction. Identical rows are left alone and counted as unchanged.
 */
export class BarStage {
  private readonly batch: (string | number)[] = [];
  private many!: Statement;
  private one!: Statement;
  private rows = 0;

  constructor(private readonly db: Database) {}

  /** Starts an empty stage. */
  begin(): void {
    this.db.exec(`DROP TABLE IF EXISTS temp.bar_stage;
      CREATE TEMP TABLE bar_stage (symbol TEXT NOT NULL, ts INTEGER NOT NULL, offset_min INTEGER NOT NULL, open REAL, high REAL,
        low REAL, close REAL, volume REAL, line INTEGER NOT NULL, raw_ts TEXT NOT NULL)`);
    const row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    this.many = this.db.prepare(`INSERT INTO temp.bar_stage (${STAGE_COLUMNS}) VALUES ${Array(STAGE_BATCH).fill(row).join(", ")}`);
    this.one = this.db.prepare(`INSERT INTO temp.bar_stage (${STAGE_COLUMNS}) VALUES ${row}`);
    this.batch.length = 0;
    this.rows = 0;
    this.db.exec("BEGIN"); // touches only the temp database: no lock on the shared file
  }

  add(b: StagedBar): void {
    this.batch.push(b.symbol, b.ts, b.offsetMin, b.open, b.high, b.low, b.close, b.volume, b.line, b.rawTs);
    this.rows++;
    if (this.batch.length === STAGE_BATCH * 10) {
      this.many.run(...this.batch);
      this.batch.length = 0;
    }
  }

  /** Ends loading: flushes, commits the temp table and indexes it. Returns the number of rows staged. */
  endLoad(): number {
    for (let i = 0; i < this.batch.length; i += 10) this.one.run(...this.batch.slice(i, i + 10));
    this.batch.length = 0;
    this.db.exec("COMMIT; CREATE INDEX temp.bar_stage_key ON bar_stage (symbol, ts)");
    return this.rows;
  }

  /** Rows whose (symbol, ts) came earlier in the file, in line order, at most `limit`. */
  duplicates(limit: number): { line: number; rawTs: string; symbol: string; first: number }[] {
    return this.db
      .query(
        `SELECT line, raw_ts AS rawTs, symbol, first FROM (
           SELECT line, raw_ts, symbol, min(line) OVER (PARTITION BY symbol, ts) AS first FROM temp.bar_stage)
         WHERE line > first ORDER BY line LIMIT ?`,
      )
      .all(limit) as { line: number; rawTs: string; symbol: string; first: number }[];
  }

  /** Per symbol: each gap between consecutive bars in exchange-local time, how often, and its first line. */
  gaps(): Map<string, GapCount[]> {
    const rows = this.db
      .query(
        `SELECT symbol, gap AS gapMs, count(*) AS count, min(line) AS line FROM (
           SELECT symbol, line, ts + offset_min * 60000 - lag(ts + offset_min * 60000) OVER (PARTITION BY symbol ORDER BY ts) AS gap
             FROM temp.bar_stage)
         WHERE gap IS NOT NULL GROUP BY symbol, gap`,
      )
      .all() as (GapCount & { symbol: string })[];
    const out = new Map<string, GapCount[]>();
    for (const { symbol, ...g } of rows) {
      if (!out.has(symbol)) out.set(symbol, []);
      out.get(symbol)!.push(g);
    }
    return out;
  }

  /** Every staged bar's key, in line order (the offset-clash check, offset-clashes.ts). */
  *keys(): Generator<{ symbol: string; ts: number; offsetMin: number; line: number }> {
    yield* this.db
      .query("SELECT symbol, ts, offset_min AS offsetMin, line FROM temp.bar_stage ORDER BY line")
      .iterate() as IterableIterator<{ symbol: string; ts: number; offsetMin: number; line: number }>;
  }

  /** Upserts the staged bars under `interval`; call inside a write transaction on the database. */
  writeTo(interval: Interval): WriteCounts {
    const fresh = this.db
      .query(
        `SELECT count(*) AS n FROM temp.bar_stage s
          WHERE NOT EXISTS (SELECT 1 FROM main.bars b WHERE b.symbol = s.symbol AND b.interval = ? AND b.ts = s.ts)`,
      )
      .get(interval) as { n: number };
    const { changes } = this.db
      .query(
        `INSERT INTO main.bars (symbol, interval, ts, offset_min, open, high, low, close, volume)
           SELECT symbol, ?, ts, offset_min, open, high, low, close, volume FROM temp.bar_stage WHERE true ORDER BY symbol, ts
         ON CONFLICT(symbol, interval, ts) DO UPDATE SET
           offset_min = excluded.offset_min, open = excluded.open, high = excluded.high,
           low = excluded.low, close = excluded.close, volume = excluded.volume
         WHERE bars.offset_min IS NOT excluded.offset_min OR bars.open IS NOT excluded.open
           OR bars.high IS NOT excluded.high OR bars.low IS NOT excluded.low
           OR bars.close IS NOT excluded.close OR bars.volume IS NOT excluded.volume`,
      )
      .run(interval);
    return { inserted: fresh.n, updated: changes - fresh.n, unchanged: this.rows - changes };
  }

  /** The staged bars in (symbol, ts) order, in column batches of up to `size` rows (PostgreSQL writes them). */
  *batches(size: number): Generator<StagedColumns> {
    const rows = this.db.query(
      "SELECT symbol, ts, offset_min AS offsetMin, open, high, low, close, volume FROM temp.bar_stage ORDER BY symbol, ts",
    );
    let b = emptyColumns();
    for (const r of rows.iterate() as IterableIterator<Bar & { symbol: string }>) {
      pushBar(b, r.symbol, r);
      if (b.ts.length === size) {
        yield b;
        b = emptyColumns();
      }
    }
    if (b.ts.length > 0) yield b;
  }

  /** Drops the stage (and ends a load that failed half-way). */
  discard(): void {
    if (!this.db.inTransaction) this.db.exec("DROP TABLE IF EXISTS temp.bar_stage");
    else {
      this.db.exec("ROLLBACK");
      this.db.exec("DROP TABLE IF EXISTS temp.bar_stage");
    }
  }
}

/** Bars of several symbols as columns (one array per field), as PostgreSQL's unnest() takes them. */
export interface StagedColumns {
  symbol: string[];
  ts: number[];
  offsetMin: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

export function emptyColumns(): StagedColumns {
  return { symbol: [], ts: [], offsetMin: [], open: [], high: [], low: [], close: [], volume: [] };
}

export function pushBar(c: StagedColumns, symbol: string, b: Bar): void {
  c.symbol.push(symbol);
  c.ts.push(b.ts);
  c.offsetMin.push(b.offsetMin);
  c.open.push(b.open);
  c.high.push(b.high);
  c.low.push(b.low);
  c.close.push(b.close);
  c.volume.push(b.volume);
}

const COLUMNS = "INSERT INTO bars (symbol, interval, ts, offset_min, open, high, low, close, volume) VALUES ";
const ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?)";
/** Rows per multi-row INSERT: fewer statement calls; measured fastest around 25 on bun:sqlite. */
const BATCH = 25;

/** Plain inserts for bars known to be absent (the sample after its old bars were deleted). */
export class BulkInserter {
  private readonly many: Statement;
  private readonly one: Statement;
  private readonly args: (string | number)[] = [];

  constructor(db: Database) {
    this.many = db.prepare(COLUMNS + Array(BATCH).fill(ROW).join(", "));
    this.one = db.prepare(COLUMNS + ROW);
  }

  insert(symbol: string, interval: Interval, bars: readonly Bar[]): void {
    const args = this.args;
    let i = 0;
    for (; i + BATCH <= bars.length; i += BATCH) {
      args.length = 0;
      for (let k = i; k < i + BATCH; k++) {
        const b = bars[k]!;
        args.push(symbol, interval, b.ts, b.offsetMin, b.open, b.high, b.low, b.close, b.volume);
      }
      this.many.run(...args);
    }
    for (; i < bars.length; i++) {
      const b = bars[i]!;
      this.one.run(symbol, interval, b.ts, b.offsetMin, b.open, b.high, b.low, b.close, b.volume);
    }
  }
}
