/**
 * Every 503 answered is counted once in graphstats_unavailable_total with its reason, wherever it
 * was decided (the app's shutdown refusal, the metered wrapper, /health), on a real server.
 */
import { expect, test } from "bun:test";
import { startHarness } from "../../../test/support/http/harness.ts";
import { samples } from "../../../test/support/metrics-text.ts";

test("503s by reason: database unreachable (live and /health), shutting down; their sum is the 503s answered", async () => {
  let dbUp = true;
  let draining = false;
  const h = await startHarness({}, { override: { checkDatabase: () => dbUp, isShuttingDown: () => draining } });
  try {
    const token = await h.token("unavailable-user");
    dbUp = false;
    expect((await h.get("/v1/graph-stats/chart?lookback=30", { token })).status).toBe(503);
    expect((await h.get("/health")).status).toBe(503);
    dbUp = true;
    draining = true;
    expect((await h.get("/v1/graph-stats/chart?lookback=30", { token })).status).toBe(503);
    expect((await h.get("/health")).status).toBe(503);
    draining = false;
    expect((await h.get("/health")).status).toBe(200);
    const text = await (await h.get("/metrics")).text();
    const reasons = samples(text, "graphstats_unavailable_total");
    expect(reasons.get('{reason="database_unreachable"}')).toBe(2);
    expect(reasons.get('{reason="shutting_down"}')).toBe(2);
    expect(reasons.get('{reason="other"}')).toBe(0);
    const answered503 = [...samples(text, "graphstats_http_requests_total")].filter(([k]) => k.includes('status="503"'));
    expect(answered503.reduce((n, [, v]) => n + v, 0)).toBe(4);
    expect([...reasons.values()].reduce((a, b) => a + b, 0)).toBe(4);
  } finally {
    await h.stop();
  }
});
