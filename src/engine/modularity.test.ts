import { expect, test } from "bun:test";
import { graphFromPairs } from "./graph.ts";
import { modularity } from "./modularity.ts";

test("modularity follows the definition Σ_c [L_c/m − (K_c/2m)²] and is NaN without edges", () => {
  // A path 0-1-2-3 with weights 0.5, 0.2, 0.8, split {0,1} {2,3}.
  const n = 4;
  const corr = new Float64Array(n * n);
  corr[0 * n + 1] = 0.5;
  corr[1 * n + 2] = -0.2;
  corr[2 * n + 3] = 0.8;
  const g = graphFromPairs(corr, n, [0, 1, 1, 2, 2, 3]);
  const m = 0.5 + 0.2 + 0.8;
  const k = [0.5, 0.7, 1.0, 0.8];
  const want = 0.5 / m - ((k[0] + k[1]) / (2 * m)) ** 2 + 0.8 / m - ((k[2] + k[3]) / (2 * m)) ** 2;
  expect(modularity(g, Int32Array.from([0, 0, 1, 1]))).toBeCloseTo(want, 15);
  expect(modularity(g, Int32Array.from([0, 0, 0, 0]))).toBeCloseTo(0, 15);
  expect(modularity(graphFromPairs(corr, n, []), Int32Array.from([0, 1, 2, 3]))).toBeNaN();
});
