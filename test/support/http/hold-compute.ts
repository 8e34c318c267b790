/**
 * Holds a server's next computation at its compute pool until released, then computes it for real;
 * later ones pass. The request stays admitted, its share of the bound reserved and its connection
 * silent, as long as the test needs: what a long computation does to the socket, the meter and the
 * other requests, for no CPU and without racing a clock. The pool is the server's own; only the
 * call is held.
 */
import type { ComputePool } from "../../../src/compute/compute-pool.ts";

export interface HeldCompute {
  /** Calls of the pool's compute since the hold began (the first is the held one). */
  calls(): number;
  /** Lets the held computation start, and stops holding. */
  release(): void;
}

export function holdNext(pool: ComputePool): HeldCompute {
  const compute = pool.compute;
  let calls = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  pool.compute = (...args) => (++calls === 1 ? gate.then(() => compute.apply(pool, args)) : compute.apply(pool, args));
  return {
    calls: () => calls,
    release() {
      pool.compute = compute;
      open();
    },
  };
}
