import { expect, test } from "bun:test";
import { createMetrics } from "./metrics.ts";
import { combine } from "./worker-metrics.ts";

/** One worker's metrics with these capacity readings. */
function worker(availBytes: number, open: number, restarts: number) {
  return createMetrics({
    computeQueueDepth: () => 0,
    cacheBytes: () => 0,
    dbConnectionsInUse: () => 0,
    admittedLimitBytes: 1024,
    dbFilesystem: () => ({ availBytes, sizeBytes: 10_000 }),
    dbServerConnections: { max: 100, open: async () => open },
    workerRestarts: () => restarts,
  });
}

test("serve --workers: the one filesystem, server and supervisor are not summed; the memory bounds are", async () => {
  // The second worker has not yet heard of the third restart: the count is the one that has.
  const text = await combine([await worker(3_000, 40, 3).json(), await worker(2_500, 42, 2).json()]);
  expect(text).toContain("graphstats_db_filesystem_avail_bytes 2500");
  expect(text).toContain("graphstats_db_filesystem_size_bytes 10000");
  expect(text).toContain("graphstats_db_server_connections 42");
  expect(text).toContain("graphstats_db_max_connections 100");
  expect(text).toContain("graphstats_worker_restarts_total 3");
  // Summed as RSS is, so their ratio is the workers' together.
  expect(text).toContain("graphstats_admitted_limit_bytes 2048");
});
