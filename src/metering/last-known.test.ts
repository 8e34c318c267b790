import { expect, test } from "bun:test";
import { createLastKnown } from "./last-known.ts";

const state = (minuteUsed: number) => ({
  now: 1000,
  limits: { perMinute: 5, perDay: 30 },
  minuteUsed,
  dayUsed: minuteUsed,
  oldestInWindow: 900,
  nextMidnight: 86_400_000,
  retryAfter: 7,
});

test("the last state is kept per user without its Retry-After; unknown users have none", () => {
  const known = createLastKnown();
  known.remember("alice", state(1));
  known.remember("alice", state(2));
  expect(known.get("alice")).toEqual({
    now: 1000,
    limits: { perMinute: 5, perDay: 30 },
    minuteUsed: 2,
    dayUsed: 2,
    oldestInWindow: 900,
    nextMidnight: 86_400_000,
  });
  expect(known.get("bob")).toBeNull();
});

test("bounded in bytes: the least recently seen user goes first", () => {
  const known = createLastKnown(3 * (2 * 2 + 160));
  for (const u of ["u1", "u2", "u3"]) known.remember(u, state(1));
  known.remember("u1", state(3)); // u1 seen again: u2 is now the oldest
  known.remember("u4", state(1));
  expect(known.get("u2")).toBeNull();
  expect(known.get("u1")?.minuteUsed).toBe(3);
  expect(known.get("u3")).not.toBeNull();
  expect(known.bytes()).toBeLessThanOrEqual(3 * 164);
  for (let i = 0; i < 10_000; i++) known.remember(`user-${i}`, state(1));
  expect(known.bytes()).toBeLessThanOrEqual(3 * 164);
});
