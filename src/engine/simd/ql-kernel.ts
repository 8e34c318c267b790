/**
 * The rational QL of ql-eigenvalues.ts in WebAssembly SIMD (ql-kernel.wat), on up to QL_BATCH
 * tridiagonals side by side: each inner step waits on a chain through a division, and the other
 * tridiagonals' steps fill those waits where JavaScript, which runs one chain at a time, cannot.
 * Each tridiagonal's arithmetic is the JavaScript loop's, in its order, so the eigenvalues are the
 * same bit for bit whichever runs and in whatever company. Null where WebAssembly SIMD is
 * unavailable or the input would take more than MAX_QL_BYTES; the JavaScript loop then runs.
 */
import { ensureKernelMemory, instantiateKernel } from "./kernel-module.ts";
import { QL_KERNEL_WASM } from "./ql-kernel.wasm.ts";

interface KernelExports {
  memory: WebAssembly.Memory;
  ql(states: number, count: number): number;
}

/** How many tridiagonals the kernel runs side by side at most: two f64x2 chains of two. */
export const QL_BATCH = 4;

/** Largest workspace kept in the kernel's memory (bytes): 2 n doubles a tridiagonal. */
export const MAX_QL_BYTES = 16 * 2 ** 20;

const kernel = instantiateKernel<KernelExports>(QL_KERNEL_WASM);

/** Whether ql-eigenvalues.ts can use the kernel here. */
export const hasQlKernel = kernel !== null;

/** Each tridiagonal's state block (ql-kernel.wat's layout), one after another, then d and e2 of each. */
const STATE_BYTES = 96;
const DATA = 512;

/** Where tridiagonal q's d sits (its e2 follows, n doubles on). */
const dataAt = (n: number, q: number) => DATA + 16 * n * q;

export interface QlInput {
  /** The diagonal, overwritten by the eigenvalues (unordered). */
  d: Float64Array;
  /** The squared couplings, e2[n − 1] = 0. */
  e2: Float64Array;
}

/** Views of the kernel's memory to write `count` (1 … QL_BATCH) tridiagonals of size n into, or null. */
export function qlKernelInputs(n: number, count: number): QlInput[] | null {
  if (kernel === null || n === 0 || count < 1 || count > QL_BATCH) return null;
  if (!ensureKernelMemory(kernel.memory, dataAt(n, count), MAX_QL_BYTES)) return null;
  const buffer = kernel.memory.buffer;
  const inputs: QlInput[] = [];
  for (let q = 0; q < count; q++) {
    const d = dataAt(n, q);
    inputs.push({ d: new Float64Array(buffer, d, n), e2: new Float64Array(buffer, d + 8 * n, n) });
  }
  return inputs;
}

/**
 * Runs the QL on the `count` tridiagonals of size n last written into qlKernelInputs' views:
 * 0, or q + 1 when tridiagonal q's did not converge.
 */
export function runQlKernel(n: number, count: number): number {
  const k = kernel!;
  const bytes = new Uint8Array(k.memory.buffer, 0, DATA);
  bytes.fill(0);
  const ints = new Int32Array(k.memory.buffer, 0, DATA / 4);
  for (let q = 0; q < count; q++) {
    const at = (q * STATE_BYTES) / 4;
    const d = dataAt(n, q);
    ints[at] = d;
    ints[at + 1] = d + 8 * n;
    ints[at + 2] = n;
    ints[at + 6] = 1; // fresh: l = 0 is new
  }
  return k.ql(0, count);
}
