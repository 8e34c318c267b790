import { expect, test } from "bun:test";
import { CallbackRate, SpentSignIns } from "./spent-sign-ins.ts";

test("a pending sign-in is spent by its first callback, remembered until its cookie expires, and the memory is bounded", () => {
  let now = 0;
  const spent = new SpentSignIns(() => now, 600_000, 3);
  expect(spent.spend("a")).toBe("fresh");
  expect(spent.spend("a")).toBe("spent");
  expect(spent.spend("b")).toBe("fresh");
  expect(spent.spend("c")).toBe("fresh");
  expect(spent.spend("d")).toBe("full"); // three unexpired: nothing forgotten
  expect(spent.spend("a")).toBe("spent");
  now = 600_001; // every cookie has expired: a replay is refused by the cookie's own expiry
  expect(spent.spend("d")).toBe("fresh");
});

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
