/**
 * The bound on a process's admitted-but-unfinished live work (docs/api.md § Heavy requests): the
 * estimated cost (milliseconds of one core) and memory (bytes) of every computation admitted and
 * not yet answered. Without it, sixteen heavy requests at once all computed side by side (their
 * slices interleaved) and RSS went from 250 MB to 2.39 GB. A request that would cross either bound
 * is refused before admission (503 with Retry-After, not counted); a request alone is always let
 * in, since the cost budget already bounds it.
 */
import { StatusError } from "../status-error.ts";

export interface WorkLimits {
  /** Milliseconds of one core, summed over the admitted computations. */
  costMs: number;
  /** Estimated peak bytes, summed likewise. */
  bytes: number;
}

export interface WorkInUse {
  costMs: number;
  bytes: number;
  jobs: number;
}

export class AdmittedWork {
  private readonly used: WorkInUse = { costMs: 0, bytes: 0, jobs: 0 };

  constructor(
    readonly limits: WorkLimits,
    /** Threads computing (at least 1): how fast the admitted work drains, for Retry-After. */
    private readonly threads: () => number,
  ) {}

  /** Reserves a computation's share, or returns null when it would cross a bound; the release is idempotent. */
  reserve(costMs: number, bytes: number): (() => void) | null {
    const u = this.used;
    if (u.jobs > 0 && (u.costMs + costMs > this.limits.costMs || u.bytes + bytes > this.limits.bytes)) return null;
    u.costMs += costMs;
    u.bytes += bytes;
    u.jobs++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      u.costMs -= costMs;
      u.bytes -= bytes;
      u.jobs--;
    };
  }

  /** Seconds until the admitted work has drained at the threads' pace (at least 1, at most 120). */
  retryAfterSeconds(): number {
    return Math.min(120, Math.max(1, Math.ceil(this.used.costMs / 1000 / Math.max(1, this.threads()))));
  }

  inUse(): WorkInUse {
    return { ...this.used };
  }
}

/**
 * The refusal when a request would cross the bound: before admission, not counted, and audited
 * like any other refusal (src/http/metered.ts); Retry-After is retryAfterSeconds().
 */
export class WorkBoundFull extends StatusError {
  constructor(retryAfterSeconds: number, jobs: number) {
    super(
      503,
      "SERVICE_UNAVAILABLE",
      `the server is at its bound of admitted work (${jobs} computation${jobs === 1 ? "" : "s"} under way); ` +
        `this request was not counted; retry in ${retryAfterSeconds}s, or ask for less work`,
      { "Retry-After": String(retryAfterSeconds) },
    );
    this.name = "WorkBoundFull";
  }
}
