import { describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import { captureLogger } from "../../test/support/capture-logger.ts";
import { EventEmitter } from "node:events";
import { announceRestarts, followWorkerRestarts, workerRestartsEnv } from "../worker-restarts.ts";
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

describe("the restart count every worker reports (graphstats_worker_restarts_total)", () => {
  test("a replacement starts with the count so far; the running workers are told each restart", async () => {
    const before = { term: process.listeners("SIGTERM"), int: process.listeners("SIGINT") };
    const handed: number[] = [];
    const told: number[][] = [];
    let fourth: () => void;
    const fourthStarted = new Promise<void>((resolve) => (fourth = resolve));
    // Started in this order: slot 0 (dies at once), slot 1 (lives), slot 0 again (dies), slot 0 again (lives).
    const dies = [true, false, true, false];
    const spawn = (restarts: number) => {
      const n = handed.push(restarts) - 1;
      told.push([]);
      if (n === 3) fourth();
      return {
        pid: 1000 + n,
        signalCode: null,
        exited: dies[n] ? Promise.resolve(1) : new Promise<number>(() => {}),
        kill() {},
        send: (m: { kind: string; total: number }) => told[n]!.push(m.total),
      } as unknown as Subprocess;
    };
    try {
      void superviseWorkers({ workers: 2, spawn, logger: captureLogger() });
      await fourthStarted; // after the real backoff: 0.5 s, then 1 s
      expect(handed).toEqual([0, 0, 1, 2]);
      // Slot 1's worker, alive throughout, heard both; the dead ones nothing after they died.
      expect(told).toEqual([[], [1, 2], [], []]);
    } finally {
      for (const l of process.listeners("SIGTERM")) if (!before.term.includes(l)) process.off("SIGTERM", l);
      for (const l of process.listeners("SIGINT")) if (!before.int.includes(l)) process.off("SIGINT", l);
    }
  });

  test("a worker starts from its environment's count and follows the announcements, never backwards", () => {
    const channel = new EventEmitter();
    const followed = followWorkerRestarts(workerRestartsEnv(2), channel)!;
    expect(followed.read()).toBe(2);
    announceRestarts([{ send: (m) => channel.emit("message", m) }], 3);
    channel.emit("message", { kind: "metrics-collect", id: 1 });
    expect(followed.read()).toBe(3);
    channel.emit("message", { kind: "worker-restarts", total: 1 });
    expect(followed.read()).toBe(3);
    followed.stop();
    expect(channel.listenerCount("message")).toBe(0);
  });

  test.each([
    ["no supervisor", {}],
    ["not a count", { GRAPH_STATS_WORKER_RESTARTS: "-1" }],
  ] as const)("with %s there is nothing to follow", (_name, env) => {
    expect(followWorkerRestarts(env, new EventEmitter())).toBeNull();
  });
});
