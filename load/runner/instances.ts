/**
 * Several graph-stats processes on one store, as a multi-instance deployment runs them: one shared SQLite
 * file (the limiter is exact across processes on one file), or later a PostgreSQL URL.
 */
import { startServer, type RunningServer, type ServerOptions } from "./server.ts";

export interface RunningInstances {
  servers: RunningServer[];
  baseUrls: string[];
  /** Stops every instance (each SIGTERM, then SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `count` servers with the same options. The first starts alone so it applies the migrations
 * before the others open the store; the rest start together. When one fails, those started are stopped.
 */
export async function startInstances(count: number, o: ServerOptions): Promise<RunningInstances> {
  if (!Number.isInteger(count) || count < 1) throw new Error(`instances must be a positive integer, got ${count}`);
  const servers: RunningServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map((s) => s.stop()));
  };
  try {
    servers.push(await startServer(o));
    const rest = await Promise.allSettled(Array.from({ length: count - 1 }, () => startServer(o)));
    for (const r of rest) if (r.status === "fulfilled") servers.push(r.value);
    const failed = rest.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  } catch (err) {
    await stop();
    throw err;
  }
  return { servers, baseUrls: servers.map((s) => s.baseUrl), stop };
}
