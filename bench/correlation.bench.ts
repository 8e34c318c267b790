/**
 * The correlation stage against numpy's `corrcoef` (OpenBLAS, one thread), both pinned to one CPU,
 * taking turns: ours through OpenBLAS (src/engine/blas, where the library loads), ours on the
 * WebAssembly kernel (src/engine/simd, the fallback) and a Python process timing np.corrcoef on the
 * same shape, 5 rounds of the minimum of 5 runs each, at n = 500 and 2,000 series of 252 returns.
 * Needs python3 with numpy; without it, ours alone.
 * Run: npx bun bench/correlation.bench.ts
 */
import { openBlas } from "../src/engine/blas/openblas.ts";
import { type CorrelationKernel, correlationMatrix } from "../src/engine/correlation.ts";
import { factorReturns } from "../test/support/engine/random-returns.ts";
import { pinToOneCpu } from "./pin-cpu.ts";

const cpu = pinToOneCpu(import.meta.path);
const L = 252;
const ROUNDS = 5;
const PY = `
import sys, time
import numpy as np
n, L = int(sys.argv[1]), int(sys.argv[2])
x = np.random.default_rng(1).standard_normal((n, L))
np.corrcoef(x)
best = min((lambda t: (np.corrcoef(x), time.perf_counter() - t)[1])(time.perf_counter()) for _ in range(5))
print(best * 1000)
`;
const numpy = (n: number): number | null => {
  const r = Bun.spawnSync(["python3", "-c", PY, String(n), String(L)], { env: { ...process.env, OPENBLAS_NUM_THREADS: "1" } });
  return r.exitCode === 0 ? Number(r.stdout.toString()) : null;
};
const ours = (series: Float64Array[], kernel: CorrelationKernel): number => {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    correlationMatrix(series, "pearson", 0, L, kernel);
    best = Math.min(best, performance.now() - t);
  }
  return best;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: string[] = [];
const ms = (xs: number[]) => (xs.length ? `${median(xs).toFixed(1)} ms` : "—");
const ratio = (xs: number[], np: number[]) => (xs.length && np.length ? `${(median(xs) / median(np)).toFixed(1)}×` : "—");
for (const n of [500, 2000]) {
  const series = factorReturns(n, L, 3);
  correlationMatrix(series, "pearson", 0, L, "blas"); // warm
  correlationMatrix(series, "pearson", 0, L, "simd");
  const a: number[] = [];
  const w: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (openBlas) a.push(ours(series, "blas"));
    w.push(ours(series, "simd"));
    const np = numpy(n);
    if (np !== null) b.push(np);
  }
  rows.push(`| ${n} × ${L} | ${ms(a)} | ${ms(w)} | ${b.length ? ms(b) : "no numpy"} | ${ratio(a, b)} | ${ratio(w, b)} |`);
}
console.log(
  [
    "### Correlation stage vs numpy",
    "",
    `Command: \`npx bun bench/correlation.bench.ts\` (pinned to CPU ${cpu ?? "none"}; ${ROUNDS} rounds taking turns, each the minimum of 5 runs; median shown). ` +
      "numpy: `np.corrcoef`, OpenBLAS with OPENBLAS_NUM_THREADS=1. " +
      `Ours through OpenBLAS: ${openBlas?.description ?? "not loaded here"}; ` +
      "ours on WebAssembly: the same call with the kernel the OpenBLAS path falls back to, in the same run.",
    "",
    "| series × returns | ours, OpenBLAS | ours, WebAssembly | numpy | OpenBLAS ÷ numpy | WebAssembly ÷ numpy |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n"),
);
