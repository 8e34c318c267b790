import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { type Harness, sampleDb, SECRET, startHarness } from "../../test/support/http/harness.ts";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";
import { holdNext } from "../../test/support/http/hold-compute.ts";
import { until } from "../../test/support/until.ts";

const PATH = "/v1/graph-stats/chart?lookback=20";
/** A rolling request that computes for a few hundred ms on the sample. */
const HEAVY = "/v1/graph-stats/chart?lookback=250&periods=250&graph_method=complete";

/**
 * Waits until the server has admitted a computation (its /metrics shows admitted work), so a signal
 * sent next finds the request in flight; a fixed sleep lost that race on a loaded machine.
 */
async function untilAdmitted(base: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const text = await (await fetch(`${base}/metrics`)).text();
    if (/^graphstats_admitted_cost_ms [1-9]/m.test(text)) return;
    await Bun.sleep(5);
  }
  throw new Error("the heavy request was not admitted within 10 s");
}
const token = async (user: string) => (await mintToken({ secret: SECRET, userId: user, ttlSeconds: 3600, clock: systemClock })).token;
/** The flags of a real server process on a sample database file. */
const serveArgs = (db: string) => ["--port", "0", "--db", db, "--jwt-secret", SECRET, "--no-sample", "--default-universe", "sample"];
const hit = (base: string, t: string, id?: string) =>
  fetch(base + PATH, { headers: { Authorization: `Bearer ${t}`, ...(id ? { "X-Request-Id": id } : {}) } });

describe("metering is exact under concurrency", () => {
  /** One in-process server over a socket for the tests that need no process of their own; each uses its own users. */
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.stop());

  test("200 simultaneous requests of one fresh user → exactly 1 admitted, 199 RATE_LIMITED", async () => {
    const t = await h.token("burst-user");
    const statuses = await Promise.all(Array.from({ length: 200 }, () => h.get(PATH, { token: t }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(199);
  });

  // serve --workers 2 (two processes on one port): the same burst is in src/cli/serve-workers.test.ts, on the workers it kills.

  test("a heavy computation runs at the compute pool: /health answers while it is held there", async () => {
    const t = await h.token("heavy-user");
    // Held at the pool until /health has answered: an order of events, not a race with a sleep.
    const held = holdNext(h.server.compute);
    let answered = false;
    // Not HEAVY itself: the next test needs HEAVY's computation, not this one's answer in the result cache.
    const heavy = h.get(HEAVY.replace("lookback=250", "lookback=249"), { token: t }).then(async (r) => {
      answered = true;
      return { status: r.status, body: (await r.json()) as any };
    });
    await until(() => held.calls() === 1);
    expect((await h.get("/health")).status).toBe(200);
    expect(answered).toBe(false);
    held.release();
    const res = await heavy;
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe("rolling");
    expect(res.body.meta.diagnostics.compute_ms).toBeGreaterThan(0);
  });

  test("identical requests in flight share one computation; the next one is served from the cache", async () => {
    const [a, b, c] = await Promise.all(["share-a", "share-b", "share-c"].map((u) => h.token(u)));
    const before = h.server.compute.started();
    const both = await Promise.all(
      [a, b].map((t) => h.get(HEAVY, { token: t }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))),
    );
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(JSON.stringify(both[0]!.body.data)).toBe(JSON.stringify(both[1]!.body.data));
    expect(both[0]!.body.meta.diagnostics.cached).toBe(false);
    expect(h.server.compute.started() - before).toBe(1);
    const third = (await (await h.get(HEAVY, { token: c })).json()) as any;
    expect(third.meta.diagnostics.cached).toBe(true);
    expect(h.server.compute.started() - before).toBe(1);
  });

  test("a restart between requests keeps the windows", async () => {
    // Stopped and started again in this process, on one database file and one clock: the windows are the database's.
    const db = sampleDb();
    const first = await startHarness({}, { dbPath: db });
    const t = await first.token("restart-user");
    expect((await first.handle(PATH, { token: t })).status).toBe(200);
    await first.stop();
    const second = await startHarness({}, { dbPath: db });
    try {
      const res = await second.handle(PATH, { token: t });
      expect(res.status).toBe(429);
      expect(res.headers.get("x-ratelimit-daily-remaining")).toBe("29");
    } finally {
      await second.stop();
    }
  });

  /**
   * Two real server processes on one sample database file, started once: both take the burst;
   * then b is SIGTERMed while it computes, and a, alone on the file, is SIGKILLed under load.
   * The kill test's users have limits of their own (user limits), the others the defaults.
   */
  describe("two server processes on one database file", () => {
    const db = sampleDb();
    let a: ServerProcess;
    let b: ServerProcess;
    beforeAll(async () => {
      for (let i = 0; i < 8; i++) {
        expect((await runCliInProcess(["user", "create", `kill-user-${i}`, "--db", db])).code).toBe(0);
        const limits = ["user", "limits", `kill-user-${i}`, "--per-minute", "1000000", "--per-day", "100000000", "--db", db];
        expect((await runCliInProcess(limits)).code).toBe(0);
      }
      [a, b] = await Promise.all([spawnServer(serveArgs(db)), spawnServer(serveArgs(db))]);
    });
    afterAll(() => {
      for (const s of [a, b]) if (s && s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill("SIGKILL");
    });

    test("200 simultaneous requests of one fresh user across 2 server processes on one database file → exactly 1 admitted", async () => {
      const t = await token("two-process-user");
      const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => hit(i % 2 ? a.base : b.base, t).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(199);
      expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    });

    test("SIGTERM drains an in-flight request before the process exits; requests that arrived meanwhile, read or not yet read (process stopped), are answered, none reset", async () => {
      // Bun's stop() closes connections it has not read a request from; the drain reads them first.
      const t = await token("drain-user");
      const heavy = fetch(b.base + HEAVY, { headers: { Authorization: `Bearer ${t}` } });
      await untilAdmitted(b.base);
      const health = fetch(`${b.base}/health`); // arrives while the process runs
      await Bun.sleep(20);
      b.proc.kill("SIGSTOP"); // the kernel still accepts connections and buffers their requests
      const waiting = Array.from({ length: 4 }, () =>
        fetch(`${b.base}/health`).then(
          (r) => r.status,
          (e: Error) => e.message,
        ),
      );
      const waitingLive = fetch(b.base + PATH, { headers: { Authorization: `Bearer ${t}` } }).then(
        (r) => r.status,
        (e: Error) => e.message,
      );
      await Bun.sleep(100);
      b.proc.kill("SIGTERM");
      b.proc.kill("SIGCONT");
      expect([200, 503]).toContain((await health).status);
      for (const status of await Promise.all(waiting)) expect([200, 503] as (number | string)[]).toContain(status);
      expect([200, 429, 503] as (number | string)[]).toContain(await waitingLive);
      const res = await heavy;
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).data.type).toBe("rolling");
      expect(await b.proc.exited).toBe(0);
      expect(b.logs.some((l) => l.includes("draining"))).toBe(true);
    });

    test("SIGKILL under load loses no admitted record and leaves integrity_check ok", async () => {
      const server = a; // alone on the file now: b has drained and exited
      const tokens = await Promise.all(Array.from({ length: 8 }, (_, i) => token(`kill-user-${i}`)));
      const admitted: string[] = [];
      let stop = false;
      const workers = tokens.map(async (t, w) => {
        for (let i = 0; !stop; i++) {
          const id = `k-${w}-${i}`;
          try {
            const res = await hit(server.base, t, id);
            if (res.status === 200) admitted.push(id);
            await res.arrayBuffer();
          } catch {
            return; // the server is gone
          }
        }
      });
      // Killed once 100 are admitted, with 8 clients' requests in flight (a fixed 1.5 s sleep admitted 1,300-1,600 here).
      for (const end = Date.now() + 10_000; admitted.length < 100 && Date.now() < end; ) await Bun.sleep(5);
      server.proc.kill("SIGKILL");
      stop = true;
      await Promise.all(workers);
      await server.proc.exited;
      expect(admitted.length).toBeGreaterThan(20);
      const sqlite = new Database(db);
      try {
        expect(sqlite.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
        const counted = new Set(
          (sqlite.query("SELECT request_id AS id FROM request_log WHERE counted = 1").all() as { id: string }[]).map((r) => r.id),
        );
        const lost = admitted.filter((id) => !counted.has(id));
        expect(lost).toEqual([]);
      } finally {
        sqlite.close();
      }
    });
  });
});
