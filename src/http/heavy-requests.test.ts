/**
 * The heavy live path over real sockets (DECISIONS §6, issue #20): an admitted request is answered
 * however long it computes, and a client that goes away cancels its job, which is refunded and
 * audited as 499. A real server, real tokens, a real SQLite file holding a generated 200-symbol
 * universe, real compute threads.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeBigUniverse } from "../../test/support/big-universe.ts";
import { type Harness, sampleDb, startHarness } from "../../test/support/http/harness.ts";

const path = sampleDb();
const BIG = 200;
beforeAll(() => {
  writeBigUniverse(path, "big", BIG, 400);
});

/** About 3 s of one core here: longer than the idle timeout below, in several slices. */
const HEAVY = "/v1/graph-stats/chart?universe=big&periods=200&graph_method=knn&knn_k=50&include_graph=true";

function auditRows(h: Harness, user: string): { status: number | null; counted: number; code: string | null }[] {
  return h.server.opened.sqlite
    .query<{ status: number | null; counted: number; code: string | null }, [string]>(
      "SELECT status, counted, code FROM request_log WHERE user_id = ? ORDER BY id",
    )
    .all(user);
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error("condition not reached");
    await Bun.sleep(20);
  }
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

  test("answers that take longer than the idle timeout are delivered, not dropped and charged", async () => {
    const [a, b] = await Promise.all([h.token("slow-a"), h.token("slow-b")]);
    const t0 = performance.now();
    // Two users at once on one thread: each answer takes about twice its own computation.
    // (Different lookbacks: identical queries would share one computation.)
    const res = await Promise.all(
      [a, b].map((token, i) => h.get(`${HEAVY}&lookback=${60 + i}`, { token }).then(async (r) => ({ r, text: await r.text() }))),
    );
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThan(4000); // the premise: well past the idle timeout's reach
    for (const { r, text } of res) {
      expect(r.status).toBe(200);
      expect(JSON.parse(text).data.stocks.length).toBe(BIG);
    }
    for (const user of ["slow-a", "slow-b"]) expect(auditRows(h, user)).toEqual([{ status: 200, counted: 1, code: null }]);
  }, 60_000);

  test("a client that disconnects mid-computation cancels its job; the request is refunded and audited 499", async () => {
    const token = await h.token("leaver");
    const cancelledBefore = h.server.compute.cancelled();
    const ac = new AbortController();
    const pending = h.get(`${HEAVY}&lookback=70`, { token, signal: ac.signal }).catch((e: Error) => e);
    // Admitted and computing: the row is open (counted, no status yet).
    await until(() => auditRows(h, "leaver").some((r) => r.counted === 1 && r.status === null));
    await Bun.sleep(200);
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
