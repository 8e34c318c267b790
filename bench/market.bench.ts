/**
 * Timing of the market layer on this machine (not a test): NIFTY folder import, loadSample,
 * loadSeries cold (cache missed) for 50 symbols at 1d and at 1h resampled from 1m.
 * Run: npx bun bench/market.bench.ts
 */
import { importCsvFiles } from "../src/market/import-rules.ts";
import { loadSample } from "../src/market/load-sample.ts";
import { loadSeries } from "../src/market/series-loader.ts";
import { tempDb } from "../test/support/market-db.ts";
import { niftyFiles } from "../test/support/nifty.ts";
import { bumpDataVersion } from "../src/market/data-version.ts";
import { getUniverse } from "../src/market/universes.ts";

const REPS = 5;
function time(label: string, fn: () => unknown, reps = REPS): void {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(`| ${label} | ${ms[Math.floor(reps / 2)]!.toFixed(1)} | ${ms[0]!.toFixed(1)} | ${reps} |`);
}

const files = niftyFiles();
console.log("### Market data layer\n\n| operation | median ms | min ms | runs |\n|---|---|---|---|");
time("import NIFTY folder (fresh db, 61k rows)", () => {
  const t = tempDb();
  importCsvFiles(t, files, { universe: "nifty50" });
  t.cleanup();
});
const db = tempDb();
importCsvFiles(db, files, { universe: "nifty50" });
time("re-import NIFTY folder (all unchanged)", () => importCsvFiles(db, files, { universe: "nifty50" }));
time("loadSample (fresh db, 236k rows)", () => {
  const t = tempDb();
  loadSample(t);
  t.cleanup();
});
loadSample(db);
const nifty = getUniverse(db, "nifty50")!.symbols;
const sample = getUniverse(db, "sample")!.symbols;
// Bumping the version before each call defeats the cache, so these are cold loads.
const cold = (symbols: string[], iv: "1d" | "1h") => () => {
  bumpDataVersion(db);
  loadSeries(db, symbols, iv);
};
time("loadSeries nifty50 1d (50 x 1241), cold", cold(nifty, "1d"), 11);
time("loadSeries sample 1d (50 x 977), cold", cold(sample, "1d"), 11);
time("loadSeries sample 1h from 1m (50 x 3750), cold", cold(sample, "1h"), 11);
time("loadSeries nifty50 1d, cached", () => loadSeries(db, nifty, "1d"), 11);
db.cleanup();
