/**
 * The WebAssembly SIMD kernel of correlationMatrix (correlation-kernel.wat): the dot products of the
 * centred series, then their scaling and clipping. JavaScript has no SIMD, and these products are
 * most of the correlation stage (about 2x faster); each lane sums one column pair in k order, so the
 * results are bit-identical to the scalar loops (correlation.test.ts).
 */
import { CORRELATION_KERNEL_WASM } from "./correlation-kernel.wasm.ts";

interface KernelExports {
  memory: WebAssembly.Memory;
  dots(T: number, n: number, L: number, D: number): void;
  normalize(D: number, S: number, n: number): void;
}

/** Largest workspace kept in the kernel's memory (bytes); bigger inputs use the scalar loop. */
export const MAX_KERNEL_BYTES = 16 * 2 ** 20;

/** The instantiated kernel, or null where WebAssembly SIMD is unavailable. */
function instantiate(): KernelExports | null {
  try {
    const bytes = Buffer.from(CORRELATION_KERNEL_WASM, "base64");
    if (!WebAssembly.validate(bytes)) return null;
    return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as KernelExports;
  } catch {
    return null;
  }
}

const kernel = instantiate();

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
 * bounds it (16 MB: e.g. 1,000 series of 1,000 returns).
 */
export function dotWorkspace(n: number, L: number): DotWorkspace | null {
  if (kernel === null) return null;
  const bytes = 8 * (n * L + n * n + n);
  if (bytes > MAX_KERNEL_BYTES) return null;
  const memory = kernel.memory;
  if (memory.buffer.byteLength < bytes) {
    try {
      memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    } catch {
      return null; // no memory to grow into: the scalar loops need none of it
    }
  }
  const t = 0;
  const d = 8 * n * L;
  const s = d + 8 * n * n;
  return {
    T: new Float64Array(memory.buffer, t, n * L),
    S: new Float64Array(memory.buffer, s, n),
    D: new Float64Array(memory.buffer, d, n * n),
    dots: () => kernel.dots(t, n, L, d),
    normalize: () => kernel.normalize(d, s, n),
  };
}

/** Whether correlationMatrix can use the kernel here. */
export const hasDotKernel = kernel !== null;
