import { describe, expect, test } from "bun:test";
import { nextRestartDelay, RESTART_BASE_MS, RESTART_MAX_MS, STABLE_AFTER_MS } from "./worker-supervisor.ts";

describe("restart backoff", () => {
  const cases: [string, number | null, number, number][] = [
    ["the first death waits the base delay", null, 10, RESTART_BASE_MS],
    ["a quick second death doubles it", 500, 100, 1000],
    ["a quick death after 8 s waits 16 s", 8000, 100, 16_000],
    ["doubling stops at the maximum", 16_000, 100, RESTART_MAX_MS],
    ["at the maximum it stays there", RESTART_MAX_MS, 100, RESTART_MAX_MS],
    ["a worker that stayed up resets the delay", RESTART_MAX_MS, STABLE_AFTER_MS, RESTART_BASE_MS],
    ["just short of stable still doubles", 500, STABLE_AFTER_MS - 1, 1000],
  ];
  for (const [name, previous, lived, expected] of cases) {
    test(name, () => expect(nextRestartDelay(previous, lived)).toBe(expected));
  }
});
