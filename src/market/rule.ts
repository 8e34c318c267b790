/**
 * The market's policies are written once as generators over a port's answers (`Maybe<T>`), so the
 * same rule runs synchronously on SQLite (its transactions take no promise, and the compute
 * threads and the CLI read without awaiting) and as a promise on PostgreSQL.
 */
import type { Maybe } from "../metering/meter-port.ts";

export type { Maybe };
export type Rule<T> = Generator<unknown, T, unknown>;

/** The port's answer inside a rule: `yield* answer(port.x())`. */
export function* answer<T>(x: Maybe<T>): Generator<Maybe<T>, T, unknown> {
  return (yield x) as T;
}

/** Runs a rule: synchronously while the port answers with values, as a promise from its first promise on. */
export function run<T>(rule: Rule<T>): Maybe<T> {
  let step = rule.next();
  while (!step.done) {
    if (step.value instanceof Promise) return finish(rule, step.value);
    step = rule.next(step.value);
  }
  return step.value;
}

// A rejection is thrown into the rule, so a `finally` in it runs and its error is the caller's.
async function finish<T>(rule: Rule<T>, pending: Promise<unknown>): Promise<T> {
  let step: IteratorResult<unknown, T>;
  try {
    step = rule.next(await pending);
  } catch (err) {
    step = rule.throw(err);
  }
  while (!step.done) {
    try {
      step = rule.next(await step.value);
    } catch (err) {
      step = rule.throw(err);
    }
  }
  return step.value;
}

/** A SQLite port's answer, which is never a promise. */
export function synchronously<T>(x: Maybe<T>): T {
  if (x instanceof Promise) throw new Error("a SQLite statement answered with a promise");
  return x;
}
