/**
 * OpenBLAS through bun:ffi, for correlationMatrix's dot products: its dsyrk uses the core's FMA
 * units, which WebAssembly SIMD cannot reach (about 2x the WebAssembly kernel; docs/engine.md §
 * Correlation). Optional: null where no usable library loads, and the WebAssembly kernel takes over.
 */
import { dlopen, FFIType } from "bun:ffi";

/** Debian's multiarch directory for this machine's libraries. */
const MULTIARCH = `/usr/lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu`;

/**
 * Where Debian's libopenblas0-pthread puts the library, then the names its alternatives (or a
 * user's own build, through the loader's path) answer to.
 */
export const CANDIDATES = [
  `${MULTIARCH}/openblas-pthread/libopenblas.so.0`,
  "libopenblas.so.0",
  `${MULTIARCH}/libopenblas.so.0`,
  "libblas.so.3",
  "libcblas.so.3",
];

const SYMBOLS = {
  cblas_dsyrk: {
    args: [
      FFIType.i32,
      FFIType.i32,
      FFIType.i32,
      FFIType.i32,
      FFIType.i32,
      FFIType.f64,
      FFIType.ptr,
      FFIType.i32,
      FFIType.f64,
      FFIType.ptr,
      FFIType.i32,
    ],
    returns: FFIType.void,
  },
  openblas_set_num_threads: { args: [FFIType.i32], returns: FFIType.void },
  openblas_get_parallel: { args: [], returns: FFIType.i32 },
  openblas_get_config: { args: [], returns: FFIType.cstring },
} as const;

/** CBLAS enumerations (cblas.h). */
const ROW_MAJOR = 101;
const UPPER = 121;
const NO_TRANS = 111;

export interface OpenBlas {
  /** What loaded, from openblas_get_config (e.g. "OpenBLAS 0.3.21 ... MAX_THREADS=64"), and where from. */
  description: string;
  /**
   * C[i*n + j] = sum over k of A[i*L + k] * A[j*L + k] for i <= j (upper triangle and diagonal;
   * the rest of C is left as it was): A holds n series of L values, row after row.
   */
  gramUpper(A: Float64Array, n: number, L: number, C: Float64Array): void;
}

/** GRAPH_STATS_BLAS=0 (or false, off) keeps the library unloaded: the WebAssembly kernel runs. */
function disabled(): boolean {
  const v = process.env.GRAPH_STATS_BLAS?.trim().toLowerCase();
  return v === "0" || v === "false" || v === "off";
}

/**
 * The first candidate that loads with every symbol and is a pthreads build (openblas_get_parallel
 * 1), pinned to one thread: the service runs the engine on its own compute threads, so BLAS must
 * not start more, and OpenBLAS's serial builds are not safe to call from several threads at once
 * unless built with USE_LOCKING, which Debian's libopenblas0-serial is not.
 */
export function loadOpenBlas(candidates: readonly string[] = CANDIDATES): OpenBlas | null {
  for (const path of candidates) {
    let lib: ReturnType<typeof dlopen<typeof SYMBOLS>>;
    try {
      lib = dlopen(path, SYMBOLS);
    } catch {
      continue; // absent, or not OpenBLAS (a symbol is missing)
    }
    try {
      if (lib.symbols.openblas_get_parallel() !== 1) {
        lib.close();
        continue;
      }
      lib.symbols.openblas_set_num_threads(1);
      const dsyrk = lib.symbols.cblas_dsyrk;
      return {
        description: `${String(lib.symbols.openblas_get_config()).trim()} (${path})`,
        gramUpper: (A, n, L, C) => dsyrk(ROW_MAJOR, UPPER, NO_TRANS, n, L, 1, A, L, 0, C, n),
      };
    } catch {
      try {
        lib.close();
      } catch {}
    }
  }
  return null;
}

/** OpenBLAS, loaded once per thread (each compute thread loads its own handle), or null. */
export const openBlas: OpenBlas | null = disabled() || process.platform !== "linux" ? null : loadOpenBlas();
