import { expect, test } from "bun:test";
import { CallbackRate } from "./callback-rate.ts";

test("callbacks per client: 20 a minute, then the seconds to wait; windows of gone clients are dropped", () => {
  let now = 0;
  const rate = new CallbackRate(() => now, 20, 2);
  for (let i = 0; i < 20; i++) expect(rate.take("1.2.3.4")).toBe(0);
  expect(rate.take("1.2.3.4")).toBe(60);
  now = 45_000;
  expect(rate.take("1.2.3.4")).toBe(15);
  expect(rate.take("5.6.7.8")).toBe(0);
  expect(rate.take("9.9.9.9")).toBe(60); // two clients tracked, both in their window
  now = 60_000;
  expect(rate.take("1.2.3.4")).toBe(0); // a new window
  expect(rate.take("9.9.9.9")).toBe(60); // 5.6.7.8's window still runs
  now = 105_000;
  expect(rate.take("9.9.9.9")).toBe(0); // 5.6.7.8's has ended and is dropped
});
