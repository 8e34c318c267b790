/**
 * The WebAssembly SIMD Householder tridiagonalisation (tridiagonal-kernel.wat) behind
 * top-eigen.ts: its two O(n²) loops per step run two columns per instruction (and two rows at a
 * time), which JavaScript cannot, and are most of the random-matrix filters' time at n = 50
 * (docs/engine.md § Random-matrix filtering); it also takes the leading eigenvectors back through
 * the reflections. Null where WebAssembly SIMD is unavailable or the matrix would take more than
 * MAX_TRIDIAGONAL_BYTES; the JavaScript loops then run.
 */
import type { Tridiagonal } from "../tridiagonal-form.ts";
import { ensureKernelMemory, instantiateKernel } from "./kernel-module.ts";
import { TRIDIAGONAL_KERNEL_WASM } from "./tridiagonal-kernel.wasm.ts";

interface KernelExports {
  memory: WebAssembly.Memory;
  tridiagonalise(A: number, V: number, d: number, e: number, beta: number, p: number, n: number): void;
  reflect(V: number, beta: number, Z: number, n: number, k: number): void;
}

/**
 * Largest workspace kept in the kernel's memory (bytes): 2 n² + 4 n doubles a slot (A and its
 * reflections, up to n vectors to reflect), so one reduction up to about 2,000 symbols and four at
 * once up to about 1,000.
 */
export const MAX_TRIDIAGONAL_BYTES = 64 * 2 ** 20;

const kernel = instantiateKernel<KernelExports>(TRIDIAGONAL_KERNEL_WASM);

/** Whether top-eigen.ts can use the kernel here. */
export const hasTridiagonalKernel = kernel !== null;

/** How many reductions the kernel's memory holds at once (topEigenBatch), where they fit. */
export const TRIDIAGONAL_SLOTS = 4;

/**
 * Where each array sits in the kernel's memory for an n×n matrix in `slot` (byte offsets), and
 * the bytes one slot takes. The reflections go into A's own upper triangle (reflection k in row
 * k, right of the diagonal), which the reduction never reads: one n×n array a slot fewer to bring
 * into cache.
 */
function layout(n: number, slot = 0) {
  const d = 8 * n * n;
  const e = d + 8 * n;
  const beta = e + 8 * n;
  const p = beta + 8 * n;
  // Room for up to n vectors to reflect, so that kernelReflect never grows the memory under the views.
  const Z = p + 8 * n;
  const bytes = Z + 8 * n * n;
  const at = slot * bytes;
  return { A: at, d: at + d, e: at + e, beta: at + beta, p: at + p, Z: at + Z, bytes };
}

/**
 * The tridiagonal form of the symmetric row-major `a` (not changed), or null (see the file's
 * comment), in `slot` of a batch of `slots`. Slot 0 makes room for the whole batch where it fits
 * (else for itself alone), so that a reduction into a later slot never grows the memory, which
 * would detach slot 0's views; a later slot is null where it has no room. A reduction alone
 * reserves one slot: WebAssembly memory never shrinks.
 */
export function kernelTridiagonalise(a: Float64Array, n: number, slot = 0, slots = slot + 1): Tridiagonal | null {
  if (kernel === null || slot >= TRIDIAGONAL_SLOTS) return null;
  const { A, d, e, beta, p, bytes } = layout(n, slot);
  const memory = kernel.memory;
  if (slot === 0) {
    const room =
      ensureKernelMemory(memory, Math.min(slots, TRIDIAGONAL_SLOTS) * bytes, MAX_TRIDIAGONAL_BYTES) ||
      ensureKernelMemory(memory, bytes, MAX_TRIDIAGONAL_BYTES);
    if (!room) return null;
  } else if (memory.buffer.byteLength < (slot + 1) * bytes) return null;
  const buffer = memory.buffer;
  new Float64Array(buffer, A, n * n).set(a);
  // The last two steps have no reflection: their β stay 0, as in the JavaScript loop's fresh array.
  new Float64Array(buffer, beta, n).fill(0);
  kernel.tridiagonalise(A, A, d, e, beta, p, n);
  // Views, not copies: the caller reads them before the next call into the same slot reuses the
  // memory. Of `vs` the kernel writes each reflection's entries right of its row's diagonal, all that is read.
  return {
    n,
    d: new Float64Array(buffer, d, n),
    e: new Float64Array(buffer, e, Math.max(n - 1, 0)),
    vs: new Float64Array(buffer, A, n * n),
    beta: new Float64Array(buffer, beta, n),
  };
}

/**
 * z_q ← Q z_q in place for the k vectors of `zs` (row q at q·n), when `t` is a reduction of the
 * kernel's still in its slot (its arrays are views of the kernel's memory); false, changing
 * nothing, otherwise.
 */
export function kernelReflect(t: Tridiagonal, zs: Float64Array, k: number): boolean {
  if (kernel === null || t.vs.buffer !== kernel.memory.buffer || k === 0) return false;
  const n = t.n;
  const { beta, Z, A } = layout(n, t.vs.byteOffset / layout(n).bytes);
  const m = k * n;
  const z = new Float64Array(kernel.memory.buffer, Z, m);
  for (let i = 0; i < m; i++) z[i] = zs[i];
  kernel.reflect(A, beta, Z, n, k);
  for (let i = 0; i < m; i++) zs[i] = z[i];
  return true;
}
