/**
 * The heavy live path over real sockets (docs/api.md § Heavy requests, issue #20): an admitted
 * request is answered however long it computes, and a client that goes away cancels its job, which
 * is refunded and audited 499. A real server, real tokens, a real SQLite file holding a generated
 * 200-symbol universe, real compute threads; where only the length of a computation matters, it is
 * held at the pool (holdNext) instead of computed for seconds.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeBigUniverse } from "../../test/support/big-universe.ts";
import { type Harness, sampleDb, startHarness } from "../../test/support/http/harness.ts";
import { holdNext as holdPool } from "../../test/support/http/hold-compute.ts";
import { until } from "../../test/support/until.ts";

const holdNext = (h: Harness) => holdPool(h.server.compute);

const path = sampleDb();
const BIG = 200;
beforeAll(() => {
  writeBigUniverse(path, "big", BIG, 400);
});

/** About 2.5 s of one core here, in several slices: a computation to cancel midway. */
const HEAVY = "/v1/graph-stats/chart?universe=big&periods=200&graph_method=knn&knn_k=50&include_graph=true";
/** A snapshot of the 200 symbols: tens of ms. */
const SNAPSHOT = "/v1/graph-stats/chart?universe=big&graph_method=knn&knn_k=50&include_graph=true";

function auditRows(h: Harness, user: string): { status: number | null; counted: number; code: string | null }[] {
  return h.server.opened.sqlite
    .query<{ status: number | null; counted: number; code: string | null }, [string]>(
      "SELECT status, counted, code FROM request_log WHERE user_id = ? ORDER BY id",
    )
    .all(user);
}

describe("heavy live requests", () => {
  let h: Harness;
  beforeAll(async () => {
    // One compute thread and a one-second idle timeout: the answers below take several seconds.
    h = await startHarness(
      { dbPath: path, computeThreads: "1", costBudget: "1000000", ratePerMinute: "5" },
      { dbPath: path, idleTimeoutSeconds: 1 },
    );
  });
  afterAll(() => h.stop());

  test("an answer that takes longer than the idle timeout is delivered, not dropped and charged", async () => {
    const token = await h.token("slow");
    // Bun closes a connection silent past a 1 s idle timeout about 4 s after its request (4.0-4.1 s
    // here): held 5 s, this answer is cut unless the live endpoint lifts the timeout while it works.
    const held = holdNext(h);
    const pending = h.get(SNAPSHOT, { token }).then(async (r) => ({ r, text: await r.text() }));
    await until(() => held.calls() === 1);
    await Bun.sleep(5000);
    held.release();
    const { r, text } = await pending;
    expect(r.status).toBe(200);
    expect(JSON.parse(text).data.stocks.length).toBe(BIG);
    expect(auditRows(h, "slow")).toEqual([{ status: 200, counted: 1, code: null }]);
  }, 60_000);

  test("a client that disconnects mid-computation cancels its job; the request is refunded and audited 499", async () => {
    const token = await h.token("leaver");
    const cancelledBefore = h.server.compute.cancelled();
    const ac = new AbortController();
    const pending = h.get(`${HEAVY}&lookback=70`, { token, signal: ac.signal }).catch((e: Error) => e);
    // Admitted and computing: the row is open (counted, no status yet).
    await until(() => auditRows(h, "leaver").some((r) => r.counted === 1 && r.status === null));
    await until(() => h.server.compute.held() === 1); // its state on the thread: computing, between or in slices
    ac.abort();
    expect(await pending).toBeInstanceOf(Error);
    await until(() => h.server.compute.cancelled() === cancelledBefore + 1);
    await until(() => auditRows(h, "leaver")[0]?.status === 499);
    expect(auditRows(h, "leaver")).toEqual([{ status: 499, counted: 0, code: null }]);
    // The thread is free again at once (the job's remaining slices were dropped): a small request
    // is answered, and the leaver's windows show nothing used.
    expect(h.server.compute.queued()).toBe(0);
    const next = await h.get("/v1/graph-stats/chart?symbols=B0001,B0002,B0003", { token });
    expect(next.status).toBe(200);
    expect(next.headers.get("X-RateLimit-Remaining")).toBe("4");
    expect(next.headers.get("X-RateLimit-Daily-Remaining")).toBe(String(h.config.ratePerDay - 1));
  }, 60_000);
});

describe("the bound on admitted work", () => {
  let h: Harness;
  beforeAll(async () => {
    // A bound of 1 ms of one core: one heavy computation at a time.
    h = await startHarness(
      { dbPath: path, computeThreads: "1", costBudget: "1000000", admittedCost: "1", ratePerMinute: "5" },
      { dbPath: path },
    );
  });
  afterAll(() => h.stop());

  test("beyond it a live request is 503 with Retry-After and the rate-limit headers, decided before admission and not counted", async () => {
    const [a, b] = await Promise.all([h.token("first"), h.token("second")]);
    // The first holds the bound (its computation held at the pool) while the others arrive.
    const held = holdNext(h);
    const first = h.get(`${SNAPSHOT}&lookback=80`, { token: a });
    await until(() => held.calls() === 1);
    const refused = await h.get(`${SNAPSHOT}&lookback=81`, { token: b });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("X-RateLimit-Remaining")).toBe("5");
    expect(refused.headers.get("X-RateLimit-Daily-Remaining")).toBe(String(h.config.ratePerDay));
    expect(refused.headers.get("RateLimit-Policy")).toContain('"minute";q=5');
    const envelope = (await refused.json()) as { errors: { code: string; message: string }[] };
    expect(envelope.errors[0].code).toBe("SERVICE_UNAVAILABLE");
    expect(envelope.errors[0].message).toContain("bound of admitted work");
    expect(held.calls()).toBe(1); // nothing computed for it
    // Operators see the admitted work (the first request's estimate) on /metrics.
    const metrics = await (await h.get("/metrics")).text();
    expect(Number(/^graphstats_admitted_cost_ms (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(Number(/^graphstats_admitted_bytes (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    await until(() => auditRows(h, "second").length === 1);
    expect(auditRows(h, "second")).toEqual([{ status: 503, counted: 0, code: "SERVICE_UNAVAILABLE" }]);
    held.release();
    expect((await first).status).toBe(200);
    // With another computation under way, an answer from the result cache still needs no share.
    const again = holdNext(h);
    const third = h.get(`${SNAPSHOT}&lookback=82`, { token: a });
    await until(() => again.calls() === 1);
    const cached = await h.get(`${SNAPSHOT}&lookback=80`, { token: b });
    expect(cached.status).toBe(200);
    expect(JSON.parse(await cached.text()).meta.diagnostics.cached).toBe(true);
    expect(cached.headers.get("X-RateLimit-Remaining")).toBe("4");
    expect(again.calls()).toBe(1);
    again.release();
    expect((await third).status).toBe(200);
  }, 60_000);
});
