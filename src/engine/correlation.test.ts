import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import fc from "fast-check";
import { averageRanks, correlationMatrix, pearsonFromMoments } from "./correlation.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { dotWorkspace, hasDotKernel, MAX_KERNEL_BYTES, tileColumns } from "./simd/dot-kernel.ts";
import { CANDIDATES, loadOpenBlas, type OpenBlas, openBlas } from "./blas/openblas.ts";
import { blasCorrelation } from "./correlation-blas.ts";
import type { CorrelationKernel } from "./correlation.ts";
import type { SeriesInput } from "./types.ts";

/** Every path of correlationMatrix; "blas" is the WebAssembly kernel's where OpenBLAS does not load. */
const KERNELS: CorrelationKernel[] = ["blas", "simd", "scalar"];

/** Log returns of every symbol over the last `lookback` bars. */
function lastReturns(input: SeriesInput, lookback: number): Float64Array[] {
  const t = input.labels.length - 1;
  return input.closes.map((c) =>
    Float64Array.from({ length: lookback }, (_, k) => Math.log(c[t - lookback + k + 1] / c[t - lookback + k])),
  );
}

function expectMomentsEqualDirect(input: SeriesInput): void {
  for (const lookback of [60, 250]) {
    const series = lastReturns(input, lookback);
    const n = series.length;
    const s = new Float64Array(n);
    const ss = new Float64Array(n);
    const sxy = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < lookback; k++) {
        s[i] += series[i][k];
        ss[i] += series[i][k] ** 2;
        for (let j = i + 1; j < n; j++) sxy[i * n + j] += series[i][k] * series[j][k];
      }
    const fromMoments = pearsonFromMoments(lookback, s, ss, sxy, n);
    const direct = correlationMatrix(series, "pearson");
    let worst = 0;
    for (let q = 0; q < n * n; q++) worst = Math.max(worst, Math.abs(fromMoments[q] - direct[q]));
    expect(worst).toBeLessThan(1e-12);
  }
}

describe("pearsonFromMoments", () => {
  test("equals correlationMatrix(..., 'pearson') within 1e-12 on the synthetic sample (60 and 250 bars)", () => {
    expectMomentsEqualDirect(sampleSeriesInput());
  });
});

describeNifty("pearsonFromMoments on real data", () => {
  test("equals correlationMatrix(..., 'pearson') within 1e-12 on the NIFTY 50 (60 and 250 bars)", () => {
    expectMomentsEqualDirect(loadNifty());
  });
});

describe("correlationMatrix", () => {
  test("is symmetric with unit diagonal and values in [-1, 1]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer(),
        fc.constantFrom("pearson", "spearman" as const),
        (n, L, seed, method) => {
          const c = correlationMatrix(factorReturns(n, L, seed), method);
          for (let i = 0; i < n; i++) {
            expect(c[i * n + i]).toBe(1);
            for (let j = 0; j < n; j++) {
              expect(c[i * n + j]).toBe(c[j * n + i]);
              expect(Math.abs(c[i * n + j])).toBeLessThanOrEqual(1);
            }
          }
        },
      ),
    );
  });

  test.each(KERNELS)("identical series correlate exactly 1, rank-reversed series exactly -1 under spearman (%s)", (kernel) => {
    const [a, b] = factorReturns(2, 30, 7);
    const p = correlationMatrix([a, a.slice(), b], "pearson", 0, 30, kernel);
    expect(p[1]).toBe(1);
    expect(p[2]).toBe(p[5]);
    const s = correlationMatrix([a, a.map((v) => -v), b], "spearman", 0, 30, kernel);
    expect(s[1]).toBe(-1);
    expect(s[2]).toBe(-s[5]);
  });

  test("spearman equals pearson of average ranks; ranks of ties are their mean position", () => {
    const x = Float64Array.from([3, 1, 3, 2, 3]);
    const r = averageRanks(x);
    // Brute force: rank = (#smaller) + (#equal + 1) / 2.
    x.forEach((v, k) => {
      const smaller = x.filter((u) => u < v).length;
      const equal = x.filter((u) => u === v).length;
      expect(r[k]).toBe(smaller + (equal + 1) / 2);
    });
    const [a, b] = factorReturns(2, 25, 3);
    const viaRanks = correlationMatrix([averageRanks(a), averageRanks(b)], "pearson");
    expect(correlationMatrix([a, b], "spearman")[1]).toBeCloseTo(viaRanks[1], 14);
  });
});

test("a window given by start and length equals the same window as subarrays, bit for bit", () => {
  const series = factorReturns(12, 90, 5);
  for (const method of ["pearson", "spearman"] as const) {
    for (const [start, length] of [
      [0, 90],
      [10, 60],
      [29, 61],
      [88, 2],
    ] as const) {
      const views = series.map((s) => s.subarray(start, start + length));
      expect([...correlationMatrix(series, method, start, length)]).toEqual([...correlationMatrix(views, method)]);
    }
  }
});

describe("the WebAssembly dot-product kernel (simd/dot-kernel.ts)", () => {
  test("runs here, so the comparison below compares two implementations", () => {
    expect(hasDotKernel).toBe(true);
    expect(dotWorkspace(50, 60)).not.toBeNull();
  });

  test("gives matrices bit-identical to the scalar loops, ties and negations included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 41 }),
        fc.integer({ min: 2, max: 90 }),
        fc.integer(),
        fc.constantFrom("pearson", "spearman" as const),
        (n, L, seed, method) => {
          const series = factorReturns(n, L, seed);
          // Exact ties: a copy and a negation of the first series.
          if (n >= 3) {
            series[1] = series[0].slice();
            series[2] = series[0].map((v) => -v);
          }
          const simd = correlationMatrix(series, method, 0, L, "simd");
          const scalar = correlationMatrix(series, method, 0, L, "scalar");
          for (let q = 0; q < n * n; q++) expect(Object.is(simd[q], scalar[q])).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("grows its memory for a large matrix and stays exact for small ones after it, across column tiles", () => {
    // 300 × 252 and 200 × 300: several tiles of 32 and 24 columns; 37 × 1,100: tiles of 8, odd n.
    expect([tileColumns(252), tileColumns(300), tileColumns(1100)]).toEqual([32, 24, 8]);
    for (const [n, L] of [
      [300, 252],
      [200, 300],
      [37, 1100],
      [9, 20],
    ] as const) {
      const series = factorReturns(n, L, n);
      const simd = correlationMatrix(series, "pearson", 0, L, "simd");
      const scalar = correlationMatrix(series, "pearson", 0, L, "scalar");
      expect([...simd]).toEqual([...scalar]);
    }
  });

  test("declines workspaces above MAX_KERNEL_BYTES (the scalar loops take those)", () => {
    const [n, L] = [3000, 1000];
    expect(8 * (n * L + n * n)).toBeGreaterThan(MAX_KERNEL_BYTES);
    expect(dotWorkspace(n, L) === null).toBe(true);
  });
});

/** Debian's libopenblas0-pthread, which .ci/run installs: where it is, the OpenBLAS path must load. */
const DEBIAN_OPENBLAS = CANDIDATES[0];
const noBlas = openBlas === null;

describe("the OpenBLAS path (blas/openblas.ts)", () => {
  test.skipIf(!existsSync(DEBIAN_OPENBLAS) || process.env.GRAPH_STATS_BLAS !== undefined)(
    "loads where Debian's libopenblas0-pthread is installed, pinned to one thread",
    () => {
      expect(openBlas).not.toBeNull();
      expect(openBlas?.description).toContain("OpenBLAS");
    },
  );

  test("is null, not a crash, for absent libraries, ones missing a symbol and serial builds", () => {
    const serial = DEBIAN_OPENBLAS.replace("openblas-pthread", "openblas-serial");
    expect(loadOpenBlas(["/nonexistent/libopenblas.so.0", "libm.so.6", serial])).toBeNull();
  });

  test("is turned off by GRAPH_STATS_BLAS=0 (the WebAssembly kernel then runs)", () => {
    const code = `import { openBlas } from ${JSON.stringify(`${import.meta.dir}/blas/openblas.ts`)}; console.log(openBlas === null);`;
    const run = Bun.spawnSync([process.execPath, "-e", code], { env: { ...process.env, GRAPH_STATS_BLAS: "0" } });
    expect(run.stdout.toString().trim()).toBe("true");
  });

  test.skipIf(noBlas)("agrees with the scalar loops within 1e-13; copies give exactly 1 and negations exactly -1", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 70 }),
        fc.integer({ min: 2, max: 300 }),
        fc.integer(),
        fc.constantFrom("pearson", "spearman" as const),
        (n, L, seed, method) => {
          const series = factorReturns(n, L, seed);
          // Copies and negations of series 0, far apart, so BLAS sums them in different blocks.
          const ties = new Map<number, number>([[0, 1]]);
          if (n >= 3) {
            series[n - 1] = series[0].slice();
            ties.set(n - 1, 1);
            series[1] = series[0].map((v) => -v);
            ties.set(1, -1);
          }
          if (n >= 6) {
            series[n >> 1] = series[0].slice();
            ties.set(n >> 1, 1);
          }
          const blas = correlationMatrix(series, method, 0, L, "blas");
          const scalar = correlationMatrix(series, method, 0, L, "scalar");
          for (let i = 0; i < n; i++) {
            expect(blas[i * n + i]).toBe(1);
            for (let j = 0; j < n; j++) {
              expect(blas[i * n + j]).toBe(blas[j * n + i]);
              expect(Math.abs(blas[i * n + j] - scalar[i * n + j])).toBeLessThan(1e-13);
              const ti = ties.get(i);
              const tj = ties.get(j);
              if (ti !== undefined && tj !== undefined) expect(blas[i * n + j]).toBe(ti * tj);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test.skipIf(noBlas)("stays exact on a large matrix, with ties across BLAS blocks, and for windows by offset", () => {
    const [n, L] = [700, 252];
    const series = factorReturns(n, L + 10, 4);
    series[699] = series[3].slice();
    series[350] = series[3].map((v) => -v);
    for (const method of ["pearson", "spearman"] as const) {
      const blas = correlationMatrix(series, method, 10, L, "blas");
      const scalar = correlationMatrix(series, method, 10, L, "scalar");
      let worst = 0;
      for (let q = 0; q < n * n; q++) worst = Math.max(worst, Math.abs(blas[q] - scalar[q]));
      expect(worst).toBeLessThan(1e-13);
      expect([blas[3 * n + 699], blas[699 * n + 3], blas[3 * n + 350], blas[350 * n + 699]]).toEqual([1, 1, -1, -1]);
    }
  });

  test("keeps ties exact when the library sums the diagonal and the rest in different orders", () => {
    // A stand-in for BLAS that sums the diagonal forwards and every other entry backwards.
    const backwards: OpenBlas = {
      description: "test",
      gramUpper(A, n, L, C) {
        for (let i = 0; i < n; i++)
          for (let j = i; j < n; j++) {
            let s = 0;
            if (i === j) for (let k = 0; k < L; k++) s += A[i * L + k] * A[j * L + k];
            else for (let k = L - 1; k >= 0; k--) s += A[i * L + k] * A[j * L + k];
            C[i * n + j] = s;
          }
      },
    };
    let broken = 0;
    for (let seed = 0; seed < 40; seed++) {
      const [n, L] = [6, 61];
      const series = factorReturns(n, L, seed);
      series[4] = series[0].slice();
      series[5] = series[0].map((v) => -v);
      const packed = new Float64Array(n * L);
      const ss = new Float64Array(n);
      series.forEach((x, i) => {
        const mean = x.reduce((a, b) => a + b, 0) / L;
        for (let k = 0; k < L; k++) {
          packed[i * L + k] = x[k] - mean;
          ss[i] += (x[k] - mean) ** 2;
        }
      });
      // Without the explicit ties, the backwards sums would miss 1 and -1 for some seeds.
      const C = new Float64Array(n * n);
      backwards.gramUpper(packed, n, L, C);
      if (C[4] / Math.sqrt(C[0] * C[4 * n + 4]) !== 1) broken++;
      const c = blasCorrelation(backwards, packed, ss, n, L);
      expect([c[4], c[4 * n], c[5], c[5 * n], c[4 * n + 5], c[5 * n + 4]]).toEqual([1, 1, -1, -1, -1, -1]);
    }
    expect(broken).toBeGreaterThan(0);
  });

  test.skipIf(noBlas)("runs on a worker thread, as the compute pool does, with the same bits as here", async () => {
    const series = factorReturns(120, 252, 9);
    const here = correlationMatrix(series, "spearman", 0, 252);
    const code = `
      import { correlationMatrix } from ${JSON.stringify(`${import.meta.dir}/correlation.ts`)};
      import { openBlas } from ${JSON.stringify(`${import.meta.dir}/blas/openblas.ts`)};
      self.onmessage = (e) => postMessage({ loaded: openBlas !== null, c: correlationMatrix(e.data, "spearman", 0, 252) });`;
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: "application/typescript" })));
    try {
      const reply = await new Promise<{ loaded: boolean; c: Float64Array }>((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(e);
        worker.postMessage(series);
      });
      expect(reply.loaded).toBe(true);
      expect(Buffer.from(reply.c.buffer).equals(Buffer.from(here.buffer))).toBe(true);
    } finally {
      worker.terminate();
    }
  });
});
