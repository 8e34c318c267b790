/**
 * The CPU time of a synchronous computation on the calling thread, in milliseconds. The calling
 * thread's own clock (CLOCK_THREAD_CPUTIME_ID through bun:ffi), not the process's: the JIT's and the
 * collector's background threads would otherwise count, and they dominated shapes under ~10 ms.
 * It is what the cost model estimates, and steadier than wall time on a shared machine.
 */
import { dlopen, FFIType, ptr } from "bun:ffi";

const CLOCK_THREAD_CPUTIME_ID = 3;
const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const ts = new BigInt64Array(2);
const tsPtr = ptr(ts);

/** This thread's CPU time so far, in milliseconds. */
export function threadCpuMs(): number {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, tsPtr);
  return Number(ts[0]!) * 1000 + Number(ts[1]!) / 1e6;
}

/** One run's CPU time: for a test that measures again only what one run puts out of bounds (a busy host only slows a run). */
export function cpuMsOnce(run: () => unknown): number {
  const t0 = threadCpuMs();
  run();
  return threadCpuMs() - t0;
}

/** The minimum of three runs when the first is under 200 ms, so JIT tiers and a stray collection matter less. */
export function measureCpuMs(run: () => unknown): number {
  const first = cpuMsOnce(run);
  return first < 200 ? Math.min(first, cpuMsOnce(run), cpuMsOnce(run)) : first;
}
