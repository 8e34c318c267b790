/**
 * The WebAssembly SIMD kernel of correlationMatrix (correlation-kernel.wat): the dot products of the
 * centred series, then their scaling and clipping. JavaScript has no SIMD, and these products are
 * most of the correlation stage (about 2x faster); each lane sums one column pair in k order, so the
 * results are bit-identical to the scalar loops (correlation.test.ts).
 */
import { CORRELATION_KERNEL_WASM } from "./correlation-kernel.wasm.ts";
import { ensureKernelMemory, instantiateKernel } from "./kernel-module.ts";

interface KernelExports {
  memory: WebAssembly.Memory;
  dots(T: number, n: number, L: number, D: number, tile: number): void;
  normalize(D: number, S: number, n: number): void;
}

/**
 * Largest workspace kept in the kernel's memory (bytes); bigger inputs use the scalar loop. 64 MB
 * takes 2,000 series of 252 returns (36 MB), which on the scalar loop took 170 ms against 94 ms here.
 */
export const MAX_KERNEL_BYTES = 64 * 2 ** 20;

/** The instantiated kernel, or null where WebAssembly SIMD is unavailable. */
const kernel = instantiateKernel<KernelExports>(CORRELATION_KERNEL_WASM);

export interface DotWorkspace {
  /** The n centred series, k-major: T[k*n + i]. */
  T: Float64Array;
  /** Their sums of squares. */
  S: Float64Array;
  /** n*n: dots() leaves the dot products at D[i*n + j], i < j; normalize() the correlation matrix. */
  D: Float64Array;
  dots(): void;
  normalize(): void;
}

/**
 * Space in the kernel's memory for one correlation matrix, valid until the next call. Null
 * when there is no kernel or the workspace would exceed MAX_KERNEL_BYTES. The memory grows to
 * the largest matrix asked for so far (WebAssembly memory cannot shrink); MAX_KERNEL_BYTES
 * bounds it (64 MB per thread: e.g. 2,000 series of 1,000 returns).
 */
export function dotWorkspace(n: number, L: number): DotWorkspace | null {
  if (kernel === null) return null;
  const memory = kernel.memory;
  if (!ensureKernelMemory(memory, 8 * (n * L + n * n + n), MAX_KERNEL_BYTES)) return null;
  const t = 0;
  const d = 8 * n * L;
  const s = d + 8 * n * n;
  return {
    T: new Float64Array(memory.buffer, t, n * L),
    S: new Float64Array(memory.buffer, s, n),
    D: new Float64Array(memory.buffer, d, n * n),
    dots: () => kernel.dots(t, n, L, d, tileColumns(L)),
    normalize: () => kernel.normalize(d, s, n),
  };
}

/**
 * Columns per tile of the kernel's dots: a tile (columns × L values) of about TILE_BYTES stays in
 * the core's cache while every row pair passes; a multiple of 8, the widest block.
 */
const TILE_BYTES = 64 * 1024;
export function tileColumns(L: number): number {
  return Math.max(8, Math.floor(TILE_BYTES / (8 * Math.max(1, L)) / 8) * 8);
}

/** Whether correlationMatrix can use the kernel here. */
export const hasDotKernel = kernel !== null;
