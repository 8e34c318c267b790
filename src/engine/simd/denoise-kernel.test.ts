/**
 * The denoise kernel (denoise-kernel.wat) against the JavaScript loop it transcribes: the same
 * matrix bit for bit, for one to four components, even and odd n, and cells the clip changes.
 */
import { describe, expect, test } from "bun:test";
import { rebuildCells } from "../random-matrix.ts";
import { hasDenoiseKernel, kernelRebuild } from "./denoise-kernel.ts";

function components(k: number, n: number, seed: number, size: number): Float64Array {
  let s = seed;
  return Float64Array.from({ length: k * n }, () => {
    s = (s * 16807) % 2147483647;
    return size * (s / 2147483647 - 0.5);
  });
}

const bits = (x: Float64Array) => [...new Uint32Array(Float64Array.from(x).buffer)];

describe("the denoise kernel", () => {
  test("runs here (Bun's WebAssembly has SIMD)", () => {
    expect(hasDenoiseKernel).toBe(true);
  });

  for (const n of [1, 2, 3, 8, 49, 50]) {
    test(`n = ${n}: every cell bit for bit the JavaScript loop's, k = 1 … 4`, () => {
      for (let k = 1; k <= 4; k++) {
        // Components large enough that some cells clip at ±1, and one with zeros (products of ±0).
        for (const u of [components(k, n, 7 + k, 0.4), components(k, n, 11 + k, 3), new Float64Array(k * n).fill(-0)]) {
          const js = new Float64Array(n * n).fill(Number.NaN);
          rebuildCells(u, k, n, js);
          const out = new Float64Array(n * n).fill(Number.NaN);
          expect(kernelRebuild(u, k, n, out)).toBe(true);
          expect(bits(out)).toEqual(bits(js));
        }
      }
    });
  }

  test("a NaN component stays NaN through the clip, as in JavaScript", () => {
    const u = components(2, 5, 3, 1);
    u[2] = Number.NaN;
    const js = new Float64Array(25);
    rebuildCells(u, 2, 5, js);
    const out = new Float64Array(25);
    kernelRebuild(u, 2, 5, out);
    expect(bits(out)).toEqual(bits(js));
    expect(Number.isNaN(out[2 * 5 + 1])).toBe(true);
  });

  test("no components: nothing to do here, the caller writes the identity", () => {
    expect(kernelRebuild(new Float64Array(0), 0, 3, new Float64Array(9))).toBe(false);
  });
});
