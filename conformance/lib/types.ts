/** Shared types of the conformance kit: options, exchanges and results (a check itself: check.ts). */

/** core: any implementation; full: this one's exact forms; fuzz: document-driven generated requests. */
export type Profile = "core" | "full" | "fuzz";
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
   * The query of a plain live or demo request (`--query`; `periods=3` is added for the rolling one).
   * When not given, built from the required parameters of the deployment's OpenAPI document, else none.
   */
  query?: string;
  /** Add the fuzz checks to the profile's (`--fuzz`); `--profile fuzz` runs them alone. */
  fuzz?: boolean;
  /** The OpenAPI document to fuzz from instead of the deployment's /openapi.json. */
  openapi?: string;
  /** fast-check seed of the fuzz checks; random (and printed) when not given. */
  seed?: number;
  /** Generated cases per operation and check (`--cases`). */
  cases?: number;
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
  /** Fuzz counterexamples, shrunk, each with the seed and a curl command. */
  findings?: Finding[];
  ms: number;
}

/** A fuzz failure, shrunk to a minimal case, with everything needed to rerun it. */
export interface Finding {
  check: string;
  operation: string;
  /** The run's seed: `--seed N` regenerates the same cases. */
  seed: number;
  /** The minimal case in words: each parameter, how it was made, the credentials. */
  case: string;
  problems: string[];
  /** A ready-to-run curl command; a real token appears as $TOKEN. */
  curl: string;
  /** What $TOKEN must be, when the command uses one. */
  tokenNote?: string;
  /** Cases generated before the first failure, and shrinking steps that then found a smaller one. */
  casesRun: number;
  shrinks: number;
  /** fast-check's replay path of the counterexample. */
  path?: string;
}

/** What the fuzz checks did per operation: the numbers a reader needs to trust a pass. */
export interface FuzzOperationStat {
  check: string;
  operation: string;
  /** Cases generated (not shrinking): each is either sent or not sent, so sent + Σ notSent = generated. */
  generated: number;
  sent: number;
  /** The first answer's status of each sent case: they add up to `sent`. */
  statuses: Record<string, number>;
  /** Cases sent a second time by the same user (a case of `twice`), and those answers' statuses (the 429 judged). */
  again: { sent: number; statuses: Record<string, number> };
  /** Why some generated cases were not sent (budget, window), with counts. */
  notSent: Record<string, number>;
  failed: boolean;
}

export interface FuzzSummary {
  seed: number;
  casesPerOperation: number;
  document?: string;
  operations: FuzzOperationStat[];
  /** Real (or kit-clock) time spent waiting for Retry-After in token mode. */
  waitedMs: number;
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
  /** Present when fuzz checks ran. */
  fuzz?: FuzzSummary;
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
    readonly findings?: Finding[],
  ) {
    super(message);
  }
}

/** Thrown for bad usage or an unreachable target (exit code 2). */
export class UsageError extends Error {
  override name = "UsageError";
}
