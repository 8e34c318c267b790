/**
 * The WebAssembly SIMD rebuild of denoise=mp (denoise-kernel.wat): the n² cells of the denoised
 * matrix two per instruction, the same bit for bit as random-matrix.ts's loop, which JavaScript
 * runs one cell at a time. False where WebAssembly SIMD is unavailable or the matrix would take
 * more than MAX_DENOISE_BYTES; the JavaScript loop then runs.
 */
import { DENOISE_KERNEL_WASM } from "./denoise-kernel.wasm.ts";
import { ensureKernelMemory, instantiateKernel } from "./kernel-module.ts";

interface KernelExports {
  memory: WebAssembly.Memory;
  rebuild(U: number, k: number, n: number, O: number): void;
}

/** Largest workspace kept in the kernel's memory (bytes): n² + k n doubles, about 2,800 symbols. */
export const MAX_DENOISE_BYTES = 64 * 2 ** 20;

const kernel = instantiateKernel<KernelExports>(DENOISE_KERNEL_WASM);

/** Whether random-matrix.ts can use the kernel here. */
export const hasDenoiseKernel = kernel !== null;

/**
 * out[i·n + j] = Σ_q u_q[i]·u_q[j] clipped to [−1, 1], diagonal 1, for the k ≥ 1 rows of `u`
 * (u_q at q·n); false, changing nothing, where the kernel cannot run.
 */
export function kernelRebuild(u: Float64Array, k: number, n: number, out: Float64Array): boolean {
  if (kernel === null || k < 1) return false;
  const O = 8 * k * n;
  if (!ensureKernelMemory(kernel.memory, O + 8 * n * n, MAX_DENOISE_BYTES)) return false;
  const buffer = kernel.memory.buffer;
  new Float64Array(buffer, 0, k * n).set(u.subarray(0, k * n));
  kernel.rebuild(0, k, n, O);
  out.set(new Float64Array(buffer, O, n * n));
  return true;
}
