/**
 * The market's statements on SQLite (src/market/market-port.ts): raw prepared bun:sqlite
 * statements, built once per connection. Bars are read as value arrays by primary-key range
 * (symbol, interval, ts), so a request reads the bars under its windows, not the stored history.
 */
import type { Database } from "bun:sqlite";
import { INTERVALS, type Interval } from "../../src/engine/types.ts";
import { BarStage, BulkInserter } from "../../src/market/bar-writer.ts";
import { bumpDataVersion, getDataVersion } from "../../src/market/data-version.ts";
import type { BarRow, BarSpan, BarTime, MarketPort, MarketWrites, SymbolMetadata, UniverseSource } from "../../src/market/market-port.ts";
import { synchronously } from "../../src/market/rule.ts";
import { perRawConnection } from "./open.ts";

/** Up to this many symbols, or over a range this long (a year), a statement per symbol reads faster than one for all. */
const FEW_SYMBOLS = 64;
const LONG_RANGE_MS = 366 * 86_400_000;

/** The widest ts range SQLite is asked for (bounds beyond any bar, as integers). */
const EDGE = Number.MAX_SAFE_INTEGER;

const prepared = perRawConnection((db) => ({
  setting: db.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?"),
  setSetting: db.prepare("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"),
  names: db.prepare<{ name: string }, []>("SELECT name FROM universes ORDER BY name"),
  universe: db.prepare<{ source: string }, [string]>("SELECT source FROM universes WHERE name = ?"),
  members: db.prepare<{ symbol: string; position: number }, [string]>(
    "SELECT symbol, position FROM universe_members WHERE universe = ? ORDER BY position",
  ),
  createUniverse: db.prepare("INSERT INTO universes (name, created_at, source) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
  addMember: db.prepare("INSERT INTO universe_members (universe, symbol, position) VALUES (?, ?, ?)"),
  // A recursive index skip-scan: one seek per distinct symbol instead of reading every bar.
  symbols: db.prepare<{ s: string }, []>(
    `WITH RECURSIVE s(s) AS (
       SELECT MIN(symbol) FROM bars
       UNION ALL SELECT (SELECT MIN(symbol) FROM bars WHERE symbol > s.s) FROM s WHERE s.s IS NOT NULL)
     SELECT s FROM s WHERE s IS NOT NULL`,
  ),
  has: db.prepare<{ x: number }, [string, string]>("SELECT 1 AS x FROM bars WHERE symbol = ? AND interval = ? LIMIT 1"),
  times: db.prepare<[number, number], [string, string]>("SELECT ts, offset_min FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts"),
  // Many symbols over a window: one statement binding them as a JSON array. A statement per symbol
  // costs ~25 µs each (500 symbols' three bars: 11-18 ms against 5 ms), but over long ranges the
  // symbol a row carries costs more (50 sample symbols' 1m history: 155-180 ms against 95-125).
  rangeOfMany: db.prepare<[string, number, number, number], [string, string, number, number]>(
    `SELECT symbol, ts, offset_min, close FROM bars
      WHERE symbol IN (SELECT value FROM json_each(?)) AND interval = ? AND ts BETWEEN ? AND ? ORDER BY symbol, ts`,
  ),
  rangeOfOne: db.prepare<[number, number, number, number], [string, string, number, number]>(
    "SELECT 0, ts, offset_min, close FROM bars WHERE symbol = ? AND interval = ? AND ts BETWEEN ? AND ? ORDER BY ts",
  ),
  keys: db.prepare<{ ts: number; offsetMin: number }, [string, string]>(
    "SELECT ts, offset_min AS offsetMin FROM bars WHERE symbol = ? AND interval = ?",
  ),
  deleteBar: db.prepare("DELETE FROM bars WHERE symbol = ? AND interval = ? AND ts = ?"),
  deleteSymbol: db.prepare("DELETE FROM bars WHERE symbol = ?"),
  firstBar: db.prepare<[number, number], [string, string]>(
    "SELECT ts, offset_min FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts LIMIT 1",
  ),
  lastBar: db.prepare<[number, number], [string, string]>(
    "SELECT ts, offset_min FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts DESC LIMIT 1",
  ),
  countBars: db.prepare<{ n: number }, [string, string]>("SELECT count(*) AS n FROM bars WHERE symbol = ? AND interval = ?"),
  calendar: db.prepare<[number], [string, string]>(
    "SELECT DISTINCT ts FROM bars WHERE symbol IN (SELECT value FROM json_each(?)) AND interval = ? ORDER BY ts",
  ),
  metadata: db.prepare<{ symbol: string; name: string | null; sector: string | null; industry: string | null }, [string]>(
    "SELECT symbol, name, sector, industry FROM symbol_metadata WHERE symbol IN (SELECT value FROM json_each(?))",
  ),
  removeMember: db.prepare("DELETE FROM universe_members WHERE universe = ? AND symbol = ?"),
  deleteMembers: db.prepare("DELETE FROM universe_members WHERE universe = ?"),
  deleteUniverse: db.prepare("DELETE FROM universes WHERE name = ?"),
  // Only a row whose values differ is rewritten, so `changes` counts what the file changed.
  upsertMetadata: db.prepare(
    `INSERT INTO symbol_metadata (symbol, name, sector, industry, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(symbol) DO UPDATE SET name = excluded.name, sector = excluded.sector, industry = excluded.industry,
       updated_at = excluded.updated_at
     WHERE (name, sector, industry) IS NOT (excluded.name, excluded.sector, excluded.industry)`,
  ),
}));

const bySymbol = <T>(symbols: readonly string[], read: (symbol: string) => T): Map<string, T> => new Map(symbols.map((s) => [s, read(s)]));

/** The market port over one SQLite connection; `path` is its file ("" or ":memory:" when it has none). */
export function sqliteMarketPort(db: Database, path: string): MarketPort {
  const st = prepared(db);
  const reads = {
    dataVersion: () => getDataVersion(db),
    setting: (key: string) => st.setting.get(key)?.value ?? null,
    universeNames: () => st.names.all().map((r) => r.name),
    universe: (name: string) => {
      const row = st.universe.get(name);
      return row ? { source: (row.source === "synthetic" ? "synthetic" : "imported") as UniverseSource } : null;
    },
    members: (name: string) => st.members.all(name),
    storedPairs: () => {
      const pairs: [string, Interval][] = [];
      for (const { s } of st.symbols.all()) for (const iv of INTERVALS) if (st.has.get(s, iv)) pairs.push([s, iv]);
      return pairs;
    },
    barTimes: (symbols: readonly string[], interval: Interval) =>
      bySymbol(symbols, (s) => st.times.values(s, interval) as unknown as BarTime[]),
    barRange(symbols: readonly string[], interval: Interval, from: number, to: number) {
      const lo = Math.max(from, -EDGE);
      const hi = Math.min(to, EDGE);
      if (symbols.length <= FEW_SYMBOLS || to - from > LONG_RANGE_MS) {
        return bySymbol(symbols, (s) => st.rangeOfOne.values(s, interval, lo, hi) as unknown as BarRow[]);
      }
      const out = new Map<string, BarRow[]>(symbols.map((s) => [s, []]));
      for (const r of st.rangeOfMany.values(JSON.stringify(symbols), interval, lo, hi) as unknown as BarRow[]) {
        out.get(r[0] as string)!.push(r);
      }
      return out;
    },
    barSpans(symbols: readonly string[], interval: Interval) {
      const out = new Map<string, BarSpan>();
      for (const s of symbols) {
        const first = st.firstBar.values(s, interval)[0];
        if (!first) continue;
        const last = st.lastBar.values(s, interval)[0]!;
        out.set(s, { first: first as unknown as BarTime, last: last as unknown as BarTime, bars: st.countBars.get(s, interval)!.n });
      }
      return out;
    },
    calendar: (symbols: readonly string[], interval: Interval) =>
      st.calendar.values(JSON.stringify(symbols), interval).map((r) => r[0] as number),
    metadata(symbols: readonly string[]) {
      const out = new Map<string, SymbolMetadata>();
      for (const r of st.metadata.all(JSON.stringify(symbols))) out.set(r.symbol, { name: r.name, sector: r.sector, industry: r.industry });
      return out;
    },
  };
  const writes: MarketWrites = {
    ...reads,
    createUniverse: (name, source, now) => void st.createUniverse.run(name, now, source),
    addMembers(name, symbols, first) {
      for (let i = 0; i < symbols.length; i++) st.addMember.run(name, symbols[i]!, first + i);
    },
    bumpDataVersion: () => bumpDataVersion(db),
    setSetting: (key, value) => void st.setSetting.run(key, value),
    storedKeys: (symbols, interval) => bySymbol(symbols, (s) => st.keys.all(s, interval)),
    deleteBar: (symbol, interval, ts) => void st.deleteBar.run(symbol, interval, ts),
    upsertStaged: (stage, interval) => stage.writeTo(interval),
    removeMembers(name, symbols) {
      let n = 0;
      for (const s of symbols) n += st.removeMember.run(name, s).changes;
      return n;
    },
    deleteUniverse(name) {
      st.deleteMembers.run(name);
      st.deleteUniverse.run(name);
    },
    deleteBars(symbols) {
      let n = 0;
      for (const s of symbols) n += st.deleteSymbol.run(s).changes;
      return n;
    },
    upsertMetadata(rows, now) {
      let n = 0;
      for (const r of rows) n += st.upsertMetadata.run(r.symbol, r.name, r.sector, r.industry, now).changes;
      return n;
    },
    replaceBars(series) {
      const inserter = new BulkInserter(db);
      for (const s of series) {
        st.deleteSymbol.run(s.symbol);
        inserter.insert(s.symbol, "1d", s.daily);
        inserter.insert(s.symbol, "1m", s.minute);
      }
    },
  };
  return {
    kind: "sqlite",
    ...reads,
    locked: (write) => db.transaction(() => synchronously(write(writes))).immediate(),
    openStage: () => ({ stage: new BarStage(db), close: () => {} }),
    threadPath: path === "" || path === ":memory:" ? null : path,
  };
}
