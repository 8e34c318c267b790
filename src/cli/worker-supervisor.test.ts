import { describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { captureLogger } from "../../test/support/capture-logger.ts";
import { workerRestartsEnv, workerRestartsFrom } from "../worker-restarts.ts";
import { nextRestartDelay, RESTART_BASE_MS, RESTART_MAX_MS, STABLE_AFTER_MS, superviseWorkers } from "./worker-supervisor.ts";

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

describe("restarts handed to each worker (graphstats_worker_restarts_total)", () => {
  test("a slot's replacements count up from 0; a slot whose worker lives keeps 0", async () => {
    const before = { term: process.listeners("SIGTERM"), int: process.listeners("SIGINT") };
    const handed: number[] = [];
    let third: () => void;
    const thirdStarted = new Promise<void>((resolve) => (third = resolve));
    // Started in this order: slot 0 (dies at once), slot 1 (lives), slot 0 again (dies), slot 0 again (lives).
    const dies = [true, false, true, false];
    const spawn = (restarts: number) => {
      const n = handed.push(restarts) - 1;
      if (n === 3) third();
      return {
        pid: 1000 + n,
        signalCode: null,
        exited: dies[n] ? Promise.resolve(1) : new Promise<number>(() => {}),
        kill() {},
      } as unknown as Subprocess;
    };
    try {
      void superviseWorkers({ workers: 2, spawn, logger: captureLogger() });
      await thirdStarted; // after the real backoff: 0.5 s, then 1 s
      expect(handed).toEqual([0, 0, 1, 2]);
    } finally {
      for (const l of process.listeners("SIGTERM")) if (!before.term.includes(l)) process.off("SIGTERM", l);
      for (const l of process.listeners("SIGINT")) if (!before.int.includes(l)) process.off("SIGINT", l);
    }
  });

  test.each([
    ["a supervisor's count", workerRestartsEnv(7), 7],
    ["no supervisor", {}, undefined],
    ["not a count", { GRAPH_STATS_WORKER_RESTARTS: "-1" }, undefined],
  ] as const)("the worker reads %s", (_name, env, expected) => {
    expect(workerRestartsFrom(env)).toBe(expected);
  });
});
