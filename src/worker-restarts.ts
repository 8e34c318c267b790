/**
 * How many dead workers the supervisor of `serve --workers` has replaced, known to every worker so
 * that whichever is scraped answers for it (graphstats_worker_restarts_total): the supervisor serves
 * no /metrics. A worker starts with the count in its environment and hears each later restart over
 * the IPC channel. Every worker reports the same count, so across workers it is the largest, not a
 * sum: a worker that dies or misses a scrape takes nothing with it, where a count of its own would
 * drop out of the sum and read as a counter reset.
 */
export const WORKER_RESTARTS_ENV = "GRAPH_STATS_WORKER_RESTARTS";

interface Announcement {
  kind: "worker-restarts";
  total: number;
}

/** The environment entry of a worker started after `total` restarts. */
export function workerRestartsEnv(total: number): Record<string, string> {
  return { [WORKER_RESTARTS_ENV]: String(total) };
}

/** In the supervisor: tells every running worker the new count. */
export function announceRestarts(workers: Iterable<{ send?: (message: Announcement) => unknown }>, total: number): void {
  for (const worker of workers) {
    try {
      worker.send?.({ kind: "worker-restarts", total });
    } catch {
      // Gone meanwhile (or no channel): a replacement reads the count from its environment.
    }
  }
}

interface Channel {
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

/**
 * In a worker: the supervisor's count, kept current (null when no supervisor started this process).
 * `stop` removes the listener, which otherwise holds the process open.
 */
export function followWorkerRestarts(
  env: Record<string, string | undefined>,
  channel: Channel = process,
): { read(): number; stop(): void } | null {
  const text = env[WORKER_RESTARTS_ENV];
  if (text === undefined || !/^\d{1,9}$/.test(text)) return null;
  let total = Number(text);
  const onMessage = (m: unknown) => {
    const a = m as Partial<Announcement> | null;
    if (a?.kind === "worker-restarts" && typeof a.total === "number" && a.total > total) total = a.total;
  };
  channel.on("message", onMessage);
  return { read: () => total, stop: () => void channel.off("message", onMessage) };
}
