/**
 * How many times `serve --workers` had replaced a slot's dead worker, handed by the supervisor to
 * the worker it starts in that slot, which exports it (graphstats_worker_restarts_total): the
 * supervisor serves no /metrics, and the sum over the live workers is every restart so far.
 */
export const WORKER_RESTARTS_ENV = "GRAPH_STATS_WORKER_RESTARTS";

/** The environment entry of a worker started after `restarts` replacements in its slot. */
export function workerRestartsEnv(restarts: number): Record<string, string> {
  return { [WORKER_RESTARTS_ENV]: String(restarts) };
}

/** The count a supervisor handed this process (undefined when no supervisor started it). */
export function workerRestartsFrom(env: Record<string, string | undefined>): number | undefined {
  const text = env[WORKER_RESTARTS_ENV];
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
