import { expect, test } from "bun:test";
import { AdmittedWork } from "./admitted-work.ts";

test("reserves cost and bytes up to either bound; a lone computation always fits; releases once", () => {
  const w = new AdmittedWork({ costMs: 10_000, bytes: 100 }, () => 2);
  const big = w.reserve(50_000, 500); // alone: over both bounds, still let in (the cost budget bounds it)
  expect(big).not.toBeNull();
  expect(w.reserve(1, 1)).toBeNull(); // anything beside it crosses a bound
  big!();
  big!(); // idempotent
  expect(w.inUse()).toEqual({ costMs: 0, bytes: 0, jobs: 0 });
  const a = w.reserve(6000, 40)!;
  expect(w.reserve(5000, 10)).toBeNull(); // cost bound
  expect(w.reserve(1000, 70)).toBeNull(); // bytes bound
  const b = w.reserve(4000, 60)!; // exactly at both bounds
  expect(w.inUse()).toEqual({ costMs: 10_000, bytes: 100, jobs: 2 });
  // 10 s of one core drains in 5 s on two threads.
  expect(w.retryAfterSeconds()).toBe(5);
  a();
  b();
  expect(w.retryAfterSeconds()).toBe(1);
});
