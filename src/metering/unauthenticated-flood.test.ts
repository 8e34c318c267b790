/**
 * Issue #12 item 6: every 401 was an audit row with up to 1 KiB of query; 4,000 of them grew the
 * database and its WAL by about 40 MB. A real server process takes as many invalid-token requests
 * with 1 KiB queries; the files may grow by little, and the requests are counted per minute and code.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { sampleDb, SECRET } from "../../test/support/http/harness.ts";
import { spawnServer } from "../../test/support/http/process.ts";

const REQUESTS = 4_000;
const CONCURRENCY = 32;

const size = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
const footprint = (db: string) => size(db) + size(`${db}-wal`);

test(
  `${REQUESTS} invalid-token requests with 1 KiB queries grow the database by less than 1 MB, and are counted in aggregate`,
  async () => {
    const db = sampleDb(); // checkpointed whole: no WAL yet
    const before = footprint(db);
    const server = await spawnServer(["--port", "0", "--no-sample", "--default-universe", "sample"], {
      env: { GRAPH_STATS_JWT_SECRET: SECRET, GRAPH_STATS_DB: db, GRAPH_STATS_LOG_LEVEL: "warn" },
    });
    try {
      const query = `lookback=20&symbols=${"A".repeat(1000)}`;
      let next = 0;
      const statuses = new Map<number, number>();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < REQUESTS) {
            const i = next++;
            const auth = i % 2 === 0 ? `Bearer not-a-token-${i}` : `Basic ${btoa("x:y")}`;
            const res = await fetch(`${server.base}/v1/graph-stats/chart?${query}&n=${i}`, { headers: { Authorization: auth } });
            await res.arrayBuffer();
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }
        }),
      );
      expect(Object.fromEntries(statuses)).toEqual({ 401: REQUESTS });
      // Stopped (SIGTERM) the server writes what it still holds and lets go of the files: what they
      // hold then is all it wrote, its own start's included.
      await server.stop();
      expect(footprint(db) - before).toBeLessThan(1_000_000);
      const read = new Database(db, { readonly: true });
      try {
        expect((read.query("SELECT count(*) AS n FROM request_log WHERE user_id IS NULL").get() as { n: number }).n).toBe(0);
        const counted = read.query("SELECT code, sum(count) AS n FROM unauthenticated_counts GROUP BY code").all();
        expect(counted).toEqual([{ code: "UNAUTHORIZED", n: REQUESTS }]);
      } finally {
        read.close();
      }
    } finally {
      server.proc.kill("SIGKILL");
    }
  },
  { timeout: 180_000 },
);
