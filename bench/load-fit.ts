/**
 * The series load's calibration, shared by bench/series-load.bench.ts and bench/cost-model.bench.ts:
 * a SQLite file holding a long and a short stored history (500 symbols × 1,300 and × 40 daily bars;
 * 10 symbols × 60,000 and × 1,500 one-minute bars), cold planned loads over it (no cache; one
 * thread's CPU, least of three) and the `load` coefficient fitted to them (least squares on the
 * relative error, as the cost model's other terms are fitted).
 */
import { openDatabase } from "../db/sqlite/open.ts";
import { sqliteMarketPort } from "../db/sqlite/market-statements.ts";
import { precheck } from "../src/compute/precheck.ts";
import { COST_COEFFICIENTS, costTerms } from "../src/compute/request-cost.ts";
import type { Bar } from "../src/market/bar.ts";
import { type BarCoverage, readCoverage } from "../src/market/bar-coverage.ts";
import { run, synchronously } from "../src/market/rule.ts";
import { SeriesCache } from "../src/market/series-cache.ts";
import { SeriesLoader } from "../src/market/series-loader.ts";
import { extendUniverseRule } from "../src/market/universes.ts";
import { measureCpuMs } from "../test/support/engine/cpu-time.ts";
import { tempDbPath } from "../test/support/http/harness.ts";
import { chartParams } from "./engine-params.ts";

export interface LoadCalibration {
  /** The database file, and its universes' symbols. */
  path: string;
  symbols: { LONG: string[]; SHORT: string[]; MLONG: string[]; MSHORT: string[] };
  meta: BarCoverage;
  rows: { label: string; rows: number; ms: number; est: number }[];
  /** The fitted coefficient, ms of one core per million rows. */
  fit: number;
}

export async function calibrateLoads(): Promise<LoadCalibration> {
  const DAY = 86_400_000;
  const bar = (ts: number, close: number): Bar => ({ ts, offsetMin: 0, open: close, high: close, low: close, close, volume: 1 });
  function walk(n: number, seed: number): number[] {
    let x = 100;
    let s = seed;
    return Array.from({ length: n }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      x *= Math.exp((s / 2 ** 31 - 0.5) * 0.04);
      return x;
    });
  }
  const weekdays = (n: number) => {
    const out: number[] = [];
    for (let t = Date.UTC(2020, 0, 1); out.length < n; t += DAY) if (new Date(t).getUTCDay() % 6 !== 0) out.push(t);
    return out;
  };
  /** Minutes 09:00-15:59 UTC of consecutive weekdays, `n` of them. */
  const minutes = (n: number) => {
    const out: number[] = [];
    for (const d of weekdays(Math.ceil(n / 420) + 1)) for (let m = 0; m < 420 && out.length < n; m++) out.push(d + (9 * 60 + m) * 60_000);
    return out;
  };

  const path = tempDbPath();
  const opened = openDatabase(path);
  const port = sqliteMarketPort(opened.sqlite, path);
  const names = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${String(i).padStart(3, "0")}`);
  function universe(name: string, symbols: string[], times: number[], interval: "1d" | "1m"): void {
    const series = symbols.map((symbol, i) => {
      const bars = walk(times.length, i + 7).map((c, k) => bar(times[k]!, c));
      return { symbol, sector: "x", daily: interval === "1d" ? bars : [], minute: interval === "1m" ? bars : [] };
    });
    synchronously(
      port.locked((tx) =>
        run(
          (function* () {
            yield tx.replaceBars(series);
            yield* extendUniverseRule(tx, name, symbols, "imported", 0);
            yield tx.bumpDataVersion();
          })(),
        ),
      ),
    );
  }
  const t0 = performance.now();
  const LONG = names("L", 500);
  const SHORT = names("S", 500);
  const MLONG = names("M", 10);
  const MSHORT = names("N", 10);
  universe("long", LONG, weekdays(1300), "1d");
  universe("short", SHORT, weekdays(40), "1d");
  universe("mlong", MLONG, minutes(60_000), "1m");
  universe("mshort", MSHORT, minutes(1_500), "1m");
  opened.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  console.error(`wrote the universes in ${Math.round(performance.now() - t0)} ms`);

  // 1. Cold planned loads in process.
  const meta = await readCoverage(port, synchronously(port.dataVersion()));
  const shapes: [string[], string][] = [
    [LONG, "lookback=2"],
    [SHORT, "lookback=2"],
    [LONG, "lookback=60"],
    [LONG, "lookback=250"],
    [LONG.slice(0, 100), "lookback=250&periods=30&step=5"],
    [LONG, "lookback=60&periods=100"],
    [SHORT, "lookback=20&periods=10"],
    [MLONG, "interval=1h&lookback=2"],
    [MSHORT, "interval=1h&lookback=2"],
    [MLONG, "interval=1h&lookback=100&periods=20"],
    [MLONG, "interval=5m&lookback=200"],
    [MLONG, "interval=1d&lookback=20"],
    [MLONG, "interval=1m&lookback=1000&periods=20&step=10"],
  ];
  const rows: { label: string; rows: number; ms: number; est: number }[] = [];
  for (const [symbols, q] of shapes) {
    const params = chartParams(`${q}&metrics=pagerank&include_graph=false`);
    await meta.ready(symbols, params.interval);
    const pre = precheck(meta, symbols, params, 1e12);
    const p = pre.load;
    const perBar = p.source === params.interval ? 1 : meta.coverage(p.source, params.interval).barsPerBucket;
    const terms = costTerms(params, symbols.length, pre.asofCount, "json", {
      bars: params.lookback + 1 + (pre.asofCount - 1) * params.step,
      perBar,
    });
    const ms = measureCpuMs(() => synchronously(run(new SeriesLoader(port, new SeriesCache(0)).planRule(symbols, params.interval, p))));
    rows.push({ label: `${symbols.length} × ${q}`, rows: terms.load * 1e6, ms, est: terms.load * COST_COEFFICIENTS.load });
  }
  // c minimising Σ((c·x − y)/y)²: c = Σ(x/y) / Σ(x²/y²).
  const fit = rows.reduce((a, r) => a + r.rows / 1e6 / r.ms, 0) / rows.reduce((a, r) => a + (r.rows / 1e6 / r.ms) ** 2, 0);
  opened.sqlite.close();
  return { path, symbols: { LONG, SHORT, MLONG, MSHORT }, meta, rows, fit };
}
