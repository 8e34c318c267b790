/** Time source, injected everywhere time matters so tests control it. Milliseconds since epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class TestClock implements Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  set(t: number | string): void {
    this.t = typeof t === "string" ? Date.parse(t) : t;
  }
  tick(ms: number): void {
    this.t += ms;
  }
}

let lastMs = Number.NaN;
let lastIso = "";

/**
 * `new Date(ms).toISOString()`, remembered for the last millisecond: under load many requests and
 * log lines share one millisecond, and formatting was ~5% of /health's CPU (bench/http.bench.ts).
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
