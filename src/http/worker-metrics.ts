/**
 * `serve --workers N`: one scrape of /metrics answers for every worker. The kernel hands each
 * connection to any one worker (SO_REUSEPORT), so a worker's own registry is 1/N of the truth. The
 * scraped worker asks its supervisor over the IPC channel; the supervisor asks every worker for its
 * registry as JSON and hands the lot back; the scraped worker sums them with prom-client's
 * AggregatorRegistry (counters and histograms summed, gauges as each declares; docs/deploy.md § 9. Monitoring).
 */
import type { Subprocess } from "bun";
import { AggregatorRegistry, Gauge, type MetricObjectWithValues, type MetricValue } from "prom-client";
import type { Logger } from "../logger.ts";
import type { Metrics } from "./metrics.ts";

export type Snapshot = MetricObjectWithValues<MetricValue<string>>[];

/** Worker → supervisor: `ready` once it answers `collect`; `ask` for everyone's; `snapshot` its own. */
type FromWorker =
  | { kind: "metrics-ready" }
  | { kind: "metrics-ask"; id: number }
  | { kind: "metrics-snapshot"; id: number; metrics: Snapshot };
/** Supervisor → worker: `collect` its own; `answer` to an `ask`, with every worker's that came in time. */
type ToWorker = { kind: "metrics-collect"; id: number } | { kind: "metrics-answer"; id: number; snapshots: Snapshot[]; asked: number };

/** How long the supervisor waits for the workers' snapshots; a worker that is slower is left out (and counted out). */
export const COLLECT_TIMEOUT_MS = 2_000;
/** How long a scraped worker waits for its supervisor before answering with its own metrics alone. */
const ASK_TIMEOUT_MS = COLLECT_TIMEOUT_MS + 1_000;

/**
 * In a worker: answers the supervisor's `collect` with `local`'s registry, and returns metrics whose
 * `render` is the sum over every worker, plus `graphstats_workers_reporting` (how many are in it).
 * `stop` removes the listener, which otherwise holds the process open.
 */
export function acrossWorkers(local: Metrics, logger: Logger): { metrics: Metrics; stop(): void } {
  const send = (m: FromWorker) => process.send?.(m);
  const waiting = new Map<number, (m: Extract<ToWorker, { kind: "metrics-answer" }> | null) => void>();
  let next = 0;
  const onMessage = (m: ToWorker) => {
    if (m?.kind === "metrics-collect")
      local.json().then(
        (metrics) => send({ kind: "metrics-snapshot", id: m.id, metrics }),
        (err: unknown) => logger.warn({ err: (err as Error).message }, "could not read this worker's metrics"),
      );
    else if (m?.kind === "metrics-answer") waiting.get(m.id)?.(m);
  };
  process.on("message", onMessage);
  send({ kind: "metrics-ready" });

  const ask = () =>
    new Promise<Extract<ToWorker, { kind: "metrics-answer" }> | null>((resolve) => {
      const id = next++;
      const timer = setTimeout(() => settle(null), ASK_TIMEOUT_MS);
      const settle = (m: Extract<ToWorker, { kind: "metrics-answer" }> | null) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(m);
      };
      waiting.set(id, settle);
      send({ kind: "metrics-ask", id });
    });

  const metrics: Metrics = {
    ...local,
    async render() {
      const answer = await ask();
      const snapshots = answer?.snapshots.length ? answer.snapshots : [await local.json()];
      if (!answer) logger.warn("the supervisor did not answer for the other workers' metrics: /metrics shows this worker's alone");
      return combine(snapshots);
    },
  };
  return {
    metrics,
    stop() {
      process.off("message", onMessage);
      for (const settle of waiting.values()) settle(null);
    },
  };
}

/** The workers' registries as one Prometheus text, with `graphstats_workers_reporting`. */
export function combine(snapshots: Snapshot[]): Promise<string> {
  const registry = AggregatorRegistry.aggregate(snapshots.map(slowestLag));
  new Gauge({
    name: "graphstats_workers_reporting",
    help: "Workers whose metrics are summed in this answer (serve --workers N: N when every worker answered)",
    registers: [registry],
  }).set(snapshots.length);
  return registry.metrics();
}

/**
 * prom-client averages the event-loop lag over workers; one worker stuck behind a long task is
 * what an alert must see, so its lag is the slowest worker's (the minimum stays the minimum).
 */
function slowestLag(snapshot: Snapshot): Snapshot {
  return snapshot.map((m) =>
    m.name.startsWith("graphstats_nodejs_eventloop_lag_") && m.aggregator !== "min" ? { ...m, aggregator: "max" } : m,
  );
}

/**
 * In the supervisor: `track` each worker it spawns (pass `receive` as Bun.spawn's `ipc`); an `ask`
 * from one is answered with the snapshots of every ready worker that replied within COLLECT_TIMEOUT_MS.
 */
export function metricsRelay(logger: Logger) {
  const ready = new Set<Subprocess>();
  const collecting = new Map<number, { snapshots: Snapshot[]; pending: Set<Subprocess>; done(): void }>();
  let next = 0;

  const answer = (asker: Subprocess, askId: number) => {
    const id = next++;
    const pending = new Set(ready);
    const asked = pending.size;
    const snapshots: Snapshot[] = [];
    const done = () => {
      clearTimeout(timer);
      collecting.delete(id);
      if (pending.size > 0) logger.warn({ missing: pending.size, workers: asked }, "some workers did not send their metrics in time");
      if (ready.has(asker)) asker.send({ kind: "metrics-answer", id: askId, snapshots, asked } satisfies ToWorker);
    };
    const timer = setTimeout(done, COLLECT_TIMEOUT_MS);
    collecting.set(id, { snapshots, pending, done });
    for (const worker of pending) worker.send({ kind: "metrics-collect", id } satisfies ToWorker);
    if (pending.size === 0) done();
  };

  const forget = (worker: Subprocess) => {
    ready.delete(worker);
    for (const c of collecting.values()) if (c.pending.delete(worker) && c.pending.size === 0) c.done();
  };

  return {
    receive(message: FromWorker, worker: Subprocess) {
      if (message?.kind === "metrics-ready") ready.add(worker);
      else if (message?.kind === "metrics-ask") answer(worker, message.id);
      else if (message?.kind === "metrics-snapshot") {
        const c = collecting.get(message.id);
        if (c?.pending.delete(worker)) {
          c.snapshots.push(message.metrics);
          if (c.pending.size === 0) c.done();
        }
      }
    },
    /** Registers a spawned worker; it is forgotten when it exits. */
    track<T extends Subprocess>(worker: T): T {
      worker.exited.then(() => forget(worker));
      return worker;
    },
  };
}
