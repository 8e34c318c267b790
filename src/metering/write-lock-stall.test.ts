/**
 * Issue #12 item 7: bun:sqlite waits for a lock on the event loop, so while another process held
 * the write lock for 3 s, /health took 7.7 s behind queued audit inserts. A real server process,
 * another process holding BEGIN IMMEDIATE on the same file until told to let go, and meanwhile
 * bursts of 401s and a known user's 400s and /health polled: all of them are answered while the
 * lock is still held, nothing of theirs is written under it, and their audit rows are all written
 * once it is gone. First-time users (no row yet) are among them: the request path only reads, and
 * their rows are written after the lock (issue #23 item 8; creating the row on the request path
 * stalled /health). An order of events, not durations: /health's latency under the lock is
 * bench/write-lock-stall.bench.ts's.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { sampleDb, SECRET } from "../../test/support/http/harness.ts";
import { until } from "../../test/support/until.ts";
import { spawnServer } from "../../test/support/http/process.ts";
import { holdWriteLock } from "../../test/support/write-lock-holder.ts";

/**
 * The holder lets go by itself after this, short of the server's busy_timeout (10 s): a request
 * that waited for the lock on the event loop would be answered only after that, and release()
 * would say "by itself".
 */
const HOLD_MAX_MS = 9_000;
const BURST = 40;
const HEALTH_POLLS = 20;
const USER = "lock-stall-user";
const NEWCOMERS = 10;

const answer = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return res.status;
};

test(
  "another process holds the write lock: /health, 401s and 400s are answered while it is held, the 400s' audit rows written once it is gone",
  async () => {
    const db = sampleDb();
    const token = (await mintToken({ secret: SECRET, userId: USER, ttlSeconds: 3600, clock: systemClock })).token;
    const newcomers = await Promise.all(
      Array.from(
        { length: NEWCOMERS },
        async (_, i) => (await mintToken({ secret: SECRET, userId: `first-timer-${i}`, ttlSeconds: 3600, clock: systemClock })).token,
      ),
    );
    const server = await spawnServer(["--port", "0", "--no-sample", "--default-universe", "sample"], {
      env: { GRAPH_STATS_JWT_SECRET: SECRET, GRAPH_STATS_DB: db, GRAPH_STATS_LOG_LEVEL: "warn" },
    });
    const read = new Database(db, { readonly: true });
    const refusals = () =>
      (
        read.query("SELECT count(*) AS n FROM request_log WHERE user_id = ? AND status = 400 AND code = 'BAD_REQUEST'").get(USER) as {
          n: number;
        }
      ).n;
    const firstTimers = () => (read.query("SELECT count(*) AS n FROM users WHERE id LIKE 'first-timer-%'").get() as { n: number }).n;
    try {
      const bearer = { Authorization: `Bearer ${token}` };
      // The user and its first refusal are written before the lock is taken.
      expect(await answer(`${server.base}/v1/graph-stats/chart?lookback=oops`, bearer)).toBe(400);
      await until(() => refusals() === 1);
      const locker = await holdWriteLock(db, HOLD_MAX_MS);
      let health: number[] = [];
      let burst: number[] = [];
      try {
        [health, burst] = await Promise.all([
          (async () => {
            const seen: number[] = [];
            for (let i = 0; i < HEALTH_POLLS; i++) seen.push(await answer(`${server.base}/health`));
            return seen;
          })(),
          Promise.all([
            ...Array.from({ length: BURST }, (_, i) =>
              answer(`${server.base}/v1/graph-stats/chart?lookback=20&n=${i}`, { Authorization: `Bearer nope-${i}` }),
            ),
            ...Array.from({ length: BURST }, (_, i) => answer(`${server.base}/v1/graph-stats/chart?lookback=bad-${i}`, bearer)),
            ...newcomers.map((t, i) => answer(`${server.base}/v1/graph-stats/chart?lookback=new-${i}`, { Authorization: `Bearer ${t}` })),
          ]),
        ]);
        // Still under the lock: nothing of theirs written yet.
        expect(refusals()).toBe(1);
        expect(firstTimers()).toBe(0);
      } finally {
        // Let go only now: everything above was answered while the lock was held.
        expect(await locker.release()).toBe("on request");
      }
      expect(health).toEqual(Array(HEALTH_POLLS).fill(200));
      expect(burst.slice(0, BURST)).toEqual(Array(BURST).fill(401));
      expect(burst.slice(BURST, 2 * BURST)).toEqual(Array(BURST).fill(400));
      expect(burst.slice(2 * BURST)).toEqual(Array(NEWCOMERS).fill(400));
      // Once the lock is gone, the deferred rows are written: the refusals' and the first-timers'.
      await until(() => refusals() === BURST + 1 && firstTimers() === NEWCOMERS);
    } finally {
      read.close();
      server.proc.kill("SIGKILL");
      await server.proc.exited;
    }
  },
  { timeout: 60_000 },
);
