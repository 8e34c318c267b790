import { expect, test } from "bun:test";
import { captureLogger } from "../test/support/capture-logger.ts";
import { TestClock } from "./clock.ts";
import { countedLog } from "./counted-log.ts";

/** A counted log over a test clock and a scheduler the test runs by hand. */
function setup() {
  const logger = captureLogger();
  const clock = new TestClock(Date.parse("2026-11-22T10:00:00Z"));
  const due: { fn: () => void; ms: number }[] = [];
  const log = countedLog(logger, "warn", "refused", clock, { periodMs: 60_000, schedule: (fn, ms) => due.push({ fn, ms }) });
  return { log, clock, due, lines: logger.lines };
}

test("the first of a period is written with its details; the rest of the period is one line with the count", () => {
  const { log, lines } = setup();
  for (let i = 0; i < 300; i++) log.note({ n: i });
  expect(lines).toEqual([{ level: "warn", msg: "refused", n: 0 }]);
  log.flush();
  expect(lines[1]).toEqual({ level: "warn", msg: "refused", repeated: 299, since: "2026-11-22T10:00:00.000Z", period_s: 60 });
  log.flush();
  expect(lines).toHaveLength(2);
});

test("the count is written when the period ends, by one timer per period", () => {
  const { log, clock, due, lines } = setup();
  log.note({});
  clock.tick(15_000);
  log.note({});
  log.note({});
  expect(due.map((d) => d.ms)).toEqual([45_000]);
  due.shift()!.fn();
  expect(lines.map((l) => l.repeated ?? 1)).toEqual([1, 2]);
});

test("the next one after a period starts a new period: the old count first, then the new one's details", () => {
  const { log, clock, lines } = setup();
  log.note({ n: 1 });
  log.note({ n: 2 });
  clock.tick(60_000);
  log.note({ n: 3 });
  expect(lines.map((l) => [l.n, l.repeated])).toEqual([
    [1, undefined],
    [undefined, 1],
    [3, undefined],
  ]);
});
