/** Shared types of the conformance kit: options, exchanges and results (a check itself: check.ts). */

export type Profile = "core" | "full";
export type ReporterName = "text" | "json" | "junit";

/** Parsed command-line options. */
export interface KitOptions {
  baseUrl: string;
  token?: string;
  tokenB?: string;
  expiredToken?: string;
  secret?: string;
  /** Most metered calls (live-endpoint requests carrying a valid token) the run may spend. */
  budget: number;
  slow: boolean;
  profile: Profile;
  only?: string[];
  reporter: ReporterName;
  output?: string;
  /** Learn per-minute/per-day limits from X-RateLimit-* headers instead of expecting the defaults, 1 and 30. */
  limitsFromHeaders: boolean;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /**
   * The kit's time: when it sent and received each request, and how it waits out a Retry-After.
   * Real time unless given; a test of the kit against a server with a test clock passes one that
   * moves both, so waiting a minute costs no real minute.
   */
  clock?: KitClock;
}

export interface KitClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_TIME: KitClock = { now: () => Date.now(), sleep: (ms) => Bun.sleep(ms) };

/** One HTTP request and its response, as recorded by the client. */
export interface Exchange {
  method: string;
  url: string;
  path: string;
  /** Request headers with bearer tokens redacted. */
  requestHeaders: Record<string, string>;
  status: number;
  headers: Headers;
  body: string;
  json: unknown;
  /** Client wall clock (ms) when the request was sent and when the response arrived. */
  sentAt: number;
  receivedAt: number;
}

export type Outcome = "passed" | "failed" | "skipped";

/** Result of one check, with evidence when it failed. */
export interface CheckResult {
  id: string;
  title: string;
  cites: string;
  profile: Profile;
  outcome: Outcome;
  /** Failure or skip reason. */
  reason?: string;
  evidence: Exchange[];
  ms: number;
}

/** Whole-run summary handed to reporters. */
export interface RunReport {
  baseUrl: string;
  profile: Profile;
  results: CheckResult[];
  meteredCallsSpent: number;
  budget: number;
  startedAt: string;
  ms: number;
}

/** Thrown by a check (or the client) when it cannot run with the inputs given. */
export class Skip extends Error {
  override name = "Skip";
}

/** Thrown by a check when the target violates the documented interface. */
export class Failure extends Error {
  override name = "Failure";
  constructor(
    message: string,
    readonly evidence: Exchange[] = [],
  ) {
    super(message);
  }
}

/** Thrown for bad usage or an unreachable target (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}
