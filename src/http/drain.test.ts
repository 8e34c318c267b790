import { describe, expect, test } from "bun:test";
import { waitForQuiet } from "./drain.ts";

/** A fake clock the sleeps advance; `arrivals[t]` requests arrive while the clock passes t ms. */
function run(arrivalsAt: readonly number[], quietMs: number, maxMs: number) {
  let t = 0;
  let seen = 0;
  const pending = [...arrivalsAt].sort((a, b) => a - b);
  const sleep = async (ms: number) => {
    t += ms;
    while (pending.length > 0 && pending[0]! <= t) {
      pending.shift();
      seen++;
    }
  };
  return waitForQuiet({ seen: () => seen, quietMs, maxMs, now: () => t, sleep }).then(() => ({ stoppedAt: t, unread: pending.length }));
}

describe("the drain's quiet window", () => {
  test.each([
    { name: "nothing arrives: one window and two loop turns", arrivals: [] as number[], stoppedAt: 22 },
    { name: "a request during the window: one more window", arrivals: [5], stoppedAt: 44 },
    { name: "one read in the extra loop turns counts too", arrivals: [21], stoppedAt: 44 },
    { name: "requests keep coming: stops at the maximum", arrivals: Array.from({ length: 200 }, (_, i) => i * 10), stoppedAt: 110 },
  ])("$name", async ({ arrivals, stoppedAt }) => {
    const r = await run(arrivals, 20, 100);
    expect(r.stoppedAt).toBe(stoppedAt);
    if (arrivals.length < 100) expect(r.unread).toBe(0);
  });
});
