/**
 * WAL checkpoints off the request path. With SQLite's automatic checkpoint, the request whose
 * commit crosses 1000 WAL pages runs the checkpoint — and its fsync — on the event loop: at
 * 500 live requests/s that showed as p99/max latency spikes (bench/open-loop.ts). Instead the
 * server turns automatic checkpoints off and a worker thread checkpoints every 500 ms. If the
 * worker cannot start, automatic checkpoints stay on.
 */
import type { Database } from "bun:sqlite";
import type { Logger } from "../../src/logger.ts";

export interface Checkpointer {
  /** Checkpoints the worker has completed (for tests and diagnostics). */
  runs(): number;
  stop(): void;
}

const INTERVAL_MS = 500;

export function startCheckpointer(sqlite: Database, path: string, logger: Logger): Checkpointer {
  let runs = 0;
  if (path === ":memory:") return { runs: () => runs, stop() {} };
  let worker: Worker;
  try {
    worker = new Worker(workerSpecifier());
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "checkpoint worker unavailable; SQLite checkpoints automatically");
    return { runs: () => runs, stop() {} };
  }
  sqlite.exec("PRAGMA wal_autocheckpoint = 0");
  worker.onmessage = (event: MessageEvent<{ ok: boolean; error?: string }>) => {
    if (event.data.ok) runs++;
    else logger.warn({ err: event.data.error }, "WAL checkpoint failed; will retry");
  };
  worker.onerror = (event) => {
    logger.warn({ err: event.message }, "checkpoint worker failed; SQLite checkpoints automatically again");
    sqlite.exec("PRAGMA wal_autocheckpoint = 1000");
  };
  worker.postMessage({ path, intervalMs: INTERVAL_MS });
  worker.unref();
  return {
    runs: () => runs,
    stop() {
      worker.terminate();
      sqlite.exec("PRAGMA wal_autocheckpoint = 1000");
    },
  };
}

/**
 * From source the worker sits beside this file. In the compiled binary every module's
 * import.meta.url is the binary's, and the worker entrypoint is stored relative to the entries'
 * common root (the repository: src/cli.ts, db/, src/compute/; src/build-targets.ts), so it is
 * addressed as ./db/sqlite/checkpoint-worker.ts.
 */
function workerSpecifier(): string {
  return import.meta.url.startsWith("file:///$bunfs/")
    ? "./db/sqlite/checkpoint-worker.ts"
    : new URL("./checkpoint-worker.ts", import.meta.url).href;
}
