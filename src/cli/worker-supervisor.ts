/**
 * `serve --workers N`: N copies of the program on one port (SO_REUSEPORT), each replaced when it
 * dies, with backoff so a worker that cannot start does not spin (README.md § Operations).
 * SIGTERM/SIGINT are forwarded and end the restarts; the supervisor exits once every worker has.
 */
import type { Subprocess } from "bun";
import type { Logger } from "../logger.ts";
import { announceRestarts } from "../worker-restarts.ts";

/** First restart delay; doubled per consecutive quick death, up to RESTART_MAX_MS. */
export const RESTART_BASE_MS = 500;
export const RESTART_MAX_MS = 30_000;
/** A worker up this long is healthy: its next death restarts after RESTART_BASE_MS again. */
export const STABLE_AFTER_MS = 60_000;

/** The delay before the next restart, given the previous delay (null: none yet) and how long the worker lived. */
export function nextRestartDelay(previousMs: number | null, livedMs: number): number {
  if (previousMs === null || livedMs >= STABLE_AFTER_MS) return RESTART_BASE_MS;
  return Math.min(previousMs * 2, RESTART_MAX_MS);
}

export interface SuperviseOptions {
  workers: number;
  /** Starts one worker process; `restarts`: how many dead workers have been replaced so far. */
  spawn: (restarts: number) => Subprocess;
  logger: Logger;
}

/**
 * How a worker ended after the supervisor forwarded `forwarded` to it: exit 0 (it drained), or
 * killed by that very signal. A worker installs its handlers before its socket opens (serve-command.ts),
 * so dying by the signal means it was still loading (a replacement started just before the stop):
 * nothing was listening, nothing was lost. Any other code or signal is a failure worth exit 1.
 */
export function stoppedCleanly(code: number | null, signal: NodeJS.Signals | number | null, forwarded: NodeJS.Signals | null): boolean {
  return signal ? signal === forwarded : code === 0;
}

/** Runs the workers until a signal stops them; resolves 0 when every worker exited cleanly after it, else 1. */
export function superviseWorkers({ workers, spawn, logger }: SuperviseOptions): Promise<number> {
  let stopping: NodeJS.Signals | null = null;
  let clean = true;
  const running = new Set<Subprocess>();
  const pending = new Set<ReturnType<typeof setTimeout>>();
  let finish: (code: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));

  const settleIfIdle = () => {
    if (stopping && running.size === 0 && pending.size === 0) finish(clean ? 0 : 1);
  };

  let restarts = 0;
  const start = (slot: { delayMs: number | null }) => {
    const child = spawn(restarts);
    const startedAt = performance.now();
    running.add(child);
    child.exited.then((code) => {
      running.delete(child);
      if (stopping) {
        if (!stoppedCleanly(code, child.signalCode ?? null, stopping)) {
          clean = false;
          logger.warn(
            { pid: child.pid, code: child.signalCode ? null : code, signal: child.signalCode ?? null },
            "worker exited uncleanly while stopping",
          );
        }
        settleIfIdle();
        return;
      }
      slot.delayMs = nextRestartDelay(slot.delayMs, performance.now() - startedAt);
      announceRestarts(running, ++restarts);
      logger.warn(
        { pid: child.pid, code: child.signalCode ? null : code, signal: child.signalCode ?? null, delay_ms: slot.delayMs },
        "worker died; restarting",
      );
      const timer = setTimeout(() => {
        pending.delete(timer);
        if (!stopping) start(slot);
        settleIfIdle();
      }, slot.delayMs);
      pending.add(timer);
    });
  };

  for (let i = 0; i < workers; i++) start({ delayMs: null });

  const stop = (signal: NodeJS.Signals) => {
    if (!stopping) logger.info({ signal, workers: running.size }, "shutting down: stopping the workers");
    stopping ??= signal;
    for (const timer of pending) clearTimeout(timer);
    pending.clear();
    for (const child of running) child.kill(signal);
    settleIfIdle();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return done;
}

/**
 * A worker's stdin is a pipe from its supervisor that is never written to: end of file means the
 * supervisor is gone, even SIGKILLed, and the worker stops as on SIGTERM rather than serve on,
 * unsupervised, beside the workers of the next supervisor. Returns the function that stops watching.
 */
export function whenSupervisorGone(onGone: () => void): () => void {
  const reader = Bun.stdin.stream().getReader();
  let watching = true;
  (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // A closed or broken pipe is the same news.
    }
    if (watching) onGone();
  })();
  return () => {
    watching = false;
    reader.cancel().catch(() => {});
  };
}
