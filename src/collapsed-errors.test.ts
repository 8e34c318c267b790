import { expect, test } from "bun:test";
import { captureLogger } from "../test/support/capture-logger.ts";
import { TestClock } from "./clock.ts";
import { collapseRepeatedErrors, MAX_KINDS } from "./collapsed-errors.ts";

function setup() {
  const base = captureLogger();
  const clock = new TestClock(Date.parse("2026-11-22T10:00:00Z"));
  const logger = collapseRepeatedErrors(base, clock, { schedule: () => {} });
  return { logger, clock, lines: base.lines };
}

test("error lines the same but for their request id: the first with its id, then one line with the count and what they share", () => {
  const { logger, lines } = setup();
  for (let i = 0; i < 60; i++) logger.error({ request_id: `r${i}`, err: "SQLiteError: database or disk is full" }, "live request failed");
  logger.flush();
  expect(lines).toEqual([
    { level: "error", msg: "live request failed", request_id: "r0", err: "SQLiteError: database or disk is full" },
    {
      level: "error",
      msg: "live request failed",
      err: "SQLiteError: database or disk is full",
      repeated: 59,
      since: "2026-11-22T10:00:00.000Z",
      period_s: 60,
    },
  ]);
});

test("different errors, or the same text under another message, are counted apart; other levels pass through", () => {
  const { logger, lines } = setup();
  for (let i = 0; i < 3; i++) {
    logger.error({ request_id: `a${i}`, err: "disk full" }, "live request failed");
    logger.error({ request_id: `b${i}`, err: "I/O error" }, "live request failed");
    logger.error({ request_id: `c${i}`, err: "disk full" }, "could not write the audit log");
    logger.warn({ n: i }, "a warning");
    logger.error("plain");
  }
  expect(lines.filter((l) => l.level === "warn")).toHaveLength(3);
  logger.flush();
  const errors = lines.filter((l) => l.level === "error").map((l) => [l.msg, l.err, l.repeated ?? 1]);
  expect(errors).toEqual([
    ["live request failed", "disk full", 1],
    ["live request failed", "I/O error", 1],
    ["could not write the audit log", "disk full", 1],
    ["plain", undefined, 1],
    ["live request failed", "disk full", 2],
    ["live request failed", "I/O error", 2],
    ["could not write the audit log", "disk full", 2],
    ["plain", undefined, 2],
  ]);
});

test("a new period writes the line again; past MAX_KINDS distinct lines the counts are written and tracking starts over", () => {
  const { logger, clock, lines } = setup();
  logger.error({ err: "x" }, "failed");
  logger.error({ err: "x" }, "failed");
  clock.tick(60_000);
  logger.error({ err: "x" }, "failed");
  expect(lines.map((l) => l.repeated ?? 1)).toEqual([1, 1, 1]);
  lines.length = 0;
  for (let k = 0; k <= MAX_KINDS; k++) logger.error({ err: `e${k}` }, "failed");
  // Every kind was new: each written at once, nothing counted, so the map's reset wrote no count lines.
  expect(lines).toHaveLength(MAX_KINDS + 1);
  logger.error({ err: "e0" }, "failed");
  expect(lines).toHaveLength(MAX_KINDS + 2);
});
