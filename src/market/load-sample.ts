/** The synthetic sample on a SQLite connection: sample-policy.ts's rules, synchronously. */
import { type Clock, systemClock } from "../clock.ts";
import type { DbHandle } from "./db-handle.ts";
import { synchronously, run } from "./rule.ts";
import { type LoadSampleResult, loadSampleRule } from "./sample-policy.ts";
import { portOf } from "./sqlite-port.ts";

/** One transaction (BEGIN IMMEDIATE: the write lock), idempotent per generator version. */
export function loadSample(h: DbHandle, clock: Clock = systemClock): LoadSampleResult {
  return synchronously(run(loadSampleRule(portOf(h), clock)));
}
