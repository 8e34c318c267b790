/**
 * The correlation stage against numpy's `corrcoef` (OpenBLAS, one thread), both pinned to one CPU,
 * taking turns: ours (the WebAssembly kernel, src/engine/simd) and a Python process timing
 * np.corrcoef on the same shape, 5 rounds of the minimum of 5 runs each, at n = 500 and 2,000
 * series of 252 returns. Needs Debian's python3-numpy; without it, ours alone.
 * Run: npx bun bench/correlation.bench.ts
 */
import { correlationMatrix } from "../src/engine/correlation.ts";
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
const ours = (series: Float64Array[]): number => {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    correlationMatrix(series, "pearson", 0, L);
    best = Math.min(best, performance.now() - t);
  }
  return best;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows: string[] = [];
for (const n of [500, 2000]) {
  const series = factorReturns(n, L, 3);
  correlationMatrix(series, "pearson", 0, L); // warm
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    a.push(ours(series));
    const np = numpy(n);
    if (np !== null) b.push(np);
  }
  const ratio = b.length ? (median(a) / median(b)).toFixed(1) : "—";
  rows.push(`| ${n} × ${L} | ${median(a).toFixed(1)} ms | ${b.length ? `${median(b).toFixed(1)} ms` : "no numpy"} | ${ratio}× |`);
}
console.log(
  [
    "### Correlation stage vs numpy",
    "",
    `Command: \`npx bun bench/correlation.bench.ts\` (pinned to CPU ${cpu ?? "none"}; ${ROUNDS} rounds taking turns, each the minimum of 5 runs; median shown). ` +
      "numpy: `np.corrcoef`, OpenBLAS with OPENBLAS_NUM_THREADS=1.",
    "",
    "| series × returns | ours | numpy | ours ÷ numpy |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n"),
);
