// The TypeScript client against the real server (compiled binary): calls, values, results, errors, limits.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import {
  BadRequestError,
  CHART_PARAMS,
  DisconnectedError,
  ForbiddenError,
  GraphStatsClient,
  GraphStatsError,
  NotFoundError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  TokenExpiredError,
  UnauthorizedError,
} from "../src/index.ts";
import { sign, sleeps, startServer, type TestServer, userName } from "./server.ts";

let server: TestServer;
beforeAll(async () => {
  // A short statement timeout: a held write lock becomes the 503 in a fifth of a second.
  server = await startServer(["--db-statement-timeout", "200"]);
}, 60_000);
afterAll(() => server?.process.stop());

async function fresh() {
  const name = userName();
  return { name, token: await server.token(name) };
}

function closedPort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

describe("calls and values", () => {
  test("baseUrl and token default to GRAPH_STATS_URL and GRAPH_STATS_TOKEN", async () => {
    const { token } = await fresh();
    const saved = { url: process.env.GRAPH_STATS_URL, token: process.env.GRAPH_STATS_TOKEN };
    try {
      process.env.GRAPH_STATS_URL = server.url;
      process.env.GRAPH_STATS_TOKEN = token;
      expect((await new GraphStatsClient().chart({ include_graph: false })).data.type).toBe("snapshot");
      delete process.env.GRAPH_STATS_URL;
      expect(() => new GraphStatsClient()).toThrow(/GRAPH_STATS_URL/);
    } finally {
      process.env.GRAPH_STATS_URL = saved.url;
      process.env.GRAPH_STATS_TOKEN = saved.token;
      if (saved.url === undefined) delete process.env.GRAPH_STATS_URL;
      if (saved.token === undefined) delete process.env.GRAPH_STATS_TOKEN;
    }
  });

  test("a misspelt parameter is a TypeError before any request", async () => {
    const client = new GraphStatsClient({ baseUrl: `http://127.0.0.1:${closedPort()}`, token: "t" });
    await expect(client.chart({ lookbak: 30 } as never)).rejects.toThrow(/'lookbak' \(did you mean 'lookback'\?\)/);
    await expect(client.demo({ asof: "2025-01-01" } as never)).rejects.toThrow(TypeError);
    expect(client.requestsSent).toBe(0);
    await expect(client.chart({ lookback: 30 })).rejects.toThrow(DisconnectedError);
  });

  test("arrays, Dates and booleans become the interface's parameters", async () => {
    const { token } = await fresh();
    const r = await new GraphStatsClient({ baseUrl: server.url, token }).chart({
      metrics: ["pagerank", "betweenness_centrality"],
      asof: new Date(Date.UTC(2025, 5, 30)),
      include_graph: false,
      lookback: 40,
    });
    const params = (r.meta as { params: Record<string, unknown> }).params;
    expect([params.metrics, params.asof, params.include_graph, params.lookback]).toEqual([
      ["pagerank", "betweenness_centrality"],
      "2025-06-30",
      false,
      40,
    ]);
  });

  test("rateLimit holds the five X-RateLimit headers; unmetered routes have none", async () => {
    const { token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const r = await client.chart({ include_graph: false });
    const h = (n: string) => Number(r.headers.get(n));
    expect(r.rateLimit).toEqual({
      limit: h("X-RateLimit-Limit"),
      remaining: h("X-RateLimit-Remaining"),
      dailyLimit: h("X-RateLimit-Daily-Limit"),
      dailyRemaining: h("X-RateLimit-Daily-Remaining"),
      reset: h("X-RateLimit-Reset"),
    });
    expect(r.rateLimit!.dailyRemaining).toBe(r.rateLimit!.dailyLimit - 1);
    expect((await client.demo()).rateLimit).toBeNull();
    expect((await client.health()).data.status).toBe("ok");
  });

  test("rows() is one row per stock and metric (snapshot) or point and metric (rolling)", async () => {
    const { token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const snap = await client.chart({ metrics: ["pagerank", "degree_strength"], weights: "hrp", clusters: 4 });
    if (snap.data.type !== "snapshot") throw new Error("expected a snapshot");
    const stock = snap.data.stocks[0]!;
    const row = snap.rows().find((r) => r.symbol === stock.symbol && r.metric === "degree_strength")!;
    expect(snap.rows().length).toBe(2 * snap.data.stocks.length);
    expect(row).toEqual({
      date: snap.data.asof_date,
      symbol: stock.symbol,
      metric: "degree_strength",
      value: stock.degree_strength ?? null,
      community: stock.community ?? null,
      cluster: stock.cluster ?? null,
      weight: stock.weight ?? null,
    });
    const rolling = await client.chart({ periods: 4, metrics: ["pagerank"] });
    if (rolling.data.type !== "rolling") throw new Error("expected rolling");
    expect(rolling.rows().length).toBe(rolling.data.stocks.reduce((n, s) => n + s.points.length, 0));
    expect(new Set(rolling.rows().map((r) => r.date)).size).toBe(4);
  });

  test("edges() is the edge list; every as-of with include_graph=all; extra fields carried", async () => {
    const { token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const snap = await client.chart({ graph_method: "knn", knn_k: 3 });
    if (snap.data.type !== "snapshot") throw new Error("expected a snapshot");
    expect(snap.edges().length).toBe(snap.data.graph.edges);
    expect(snap.edges()[0]).toEqual({ date: snap.data.asof_date, ...snap.data.graph.edge_list![0]! });
    const all = await client.chart({ periods: 3, include_graph: "all" });
    expect(new Set(all.edges().map((e) => e.date)).size).toBe(3);
  });

  test("bootstrap, spectrum and include_corr: reliability, p05/p95, stability, spectra and the matrix", async () => {
    const { token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const snap = await client.chart({
      asof: "2025-09-30",
      metrics: ["pagerank"],
      bootstrap: 10,
      seed: 3,
      spectrum: true,
      include_corr: true,
      denoise: "mp",
    });
    if (snap.data.type !== "snapshot") throw new Error("expected a snapshot");
    const graph = snap.data.graph;
    expect(snap.spectrum()).toEqual({ date: snap.data.asof_date, ...graph.spectrum! });
    expect(snap.spectrum(new Date("2025-09-30T12:00:00Z"))).toEqual(snap.spectra()[0]!);
    const m = snap.corrMatrix();
    expect(m.symbols).toEqual(snap.data.stocks.map((s) => s.symbol));
    const [a, b] = m.symbols as [string, string];
    expect(m.at(a, b)).toBe(graph.corr_matrix!.matrix[0]![1]!);
    expect(m.at(b, a)).toBe(m.at(a, b));
    expect(m.at(a, a)).toBe(1);
    expect(m.at(a, "NOSUCH")).toBeNull();
    expect(snap.edges().map((e) => e.reliability)).toEqual(graph.edge_list!.map((e) => e.reliability!));
    const stock = snap.data.stocks[0]!;
    const row = snap.rows().find((r) => r.symbol === stock.symbol)!;
    expect([row.p05, row.p95]).toEqual([stock.pagerank_p05!, stock.pagerank_p95!]);
    expect(snap.graphStats()[0]!.community_stability).toBe(graph.community_stability!);

    const rolling = await client.chart({
      periods: 3,
      metrics: ["pagerank"],
      bootstrap: 5,
      spectrum: true,
      include_corr: true,
      include_graph: "all",
    });
    if (rolling.data.type !== "rolling") throw new Error("expected rolling");
    const dates = rolling.data.asof_dates;
    expect(rolling.spectra().map((s) => s.date)).toEqual(dates);
    const oldest = rolling.data.graphs![0]!;
    expect(rolling.spectrum(dates[0]!).eigenvalues).toEqual(oldest.spectrum!.eigenvalues);
    expect(rolling.corrMatrix(dates[0]!).matrix).toEqual(oldest.corr_matrix!.matrix);
    expect(rolling.graphStats().map((g) => typeof g.community_stability)).toEqual(["number", "number", "number"]);
    expect(() => rolling.spectrum("2001-01-01")).toThrow(/no spectrum at 2001-01-01 in this answer/);
    const plain = await client.chart({ include_graph: false });
    expect(() => plain.spectrum()).toThrow("no spectrum in this answer: ask with spectrum=true");
    expect(() => plain.corrMatrix()).toThrow("no corr_matrix in this answer: ask with include_corr=true");
  });

  test("every documented parameter name is accepted by the server (bad values, never unknown names)", async () => {
    const { token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const err = await client.chart(Object.fromEntries(CHART_PARAMS.map((n) => [n, "\u00a7"])) as never).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).errors.map((e) => e.message).join(" ")).not.toContain("unknown parameter");
  });
});

describe("errors", () => {
  test("a bad request lists every problem", async () => {
    const { token } = await fresh();
    const err = await new GraphStatsClient({ baseUrl: server.url, token })
      .chart({ lookback: 5000, periods: 0, graph_method: "star" as never })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err).toBeInstanceOf(GraphStatsError);
    expect([err.status, err.code, err.errors.length]).toEqual([400, "BAD_REQUEST", 3]);
    for (const e of err.errors) expect(err.message).toContain(e.message);
  });

  test("an expired token is TokenExpiredError naming the dashboard; other bad tokens are not", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = sign({ sub: "ts-expired", iat: now - 7200, exp: now - 3600, iss: "graph-stats" });
    const err = await new GraphStatsClient({ baseUrl: server.url, token: expired }).chart().catch((e) => e);
    expect(err).toBeInstanceOf(TokenExpiredError);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect([err.status, err.code, err.dashboardUrl]).toEqual([401, "UNAUTHORIZED", `${server.url}/dashboard`]);
    expect(err.message).toContain(`${server.url}/dashboard`);
    for (const token of ["not-a-jwt", sign({ sub: "ts-x", exp: now + 3600 }, "another-secret-0123456789abcdef"), undefined]) {
      const other = await new GraphStatsClient({ baseUrl: server.url, token }).chart().catch((e) => e);
      expect([other instanceof UnauthorizedError, other instanceof TokenExpiredError, other.status]).toEqual([true, false, 401]);
    }
  });

  test("a disabled user is ForbiddenError; an unknown universe NotFoundError", async () => {
    const { name, token } = await fresh();
    const client = new GraphStatsClient({ baseUrl: server.url, token });
    const missing = await client.chart({ universe: "nowhere" }).catch((e) => e);
    expect([missing instanceof NotFoundError, missing.code]).toEqual([true, "NOT_FOUND"]);
    await server.cli("user", "disable", name);
    const err = await client.chart().catch((e) => e);
    expect([err instanceof ForbiddenError, err.status]).toEqual([true, 403]);
  });

  test("a refused connection and one closed before the answer are DisconnectedError, sent once", async () => {
    const refused = await new GraphStatsClient({ baseUrl: `http://127.0.0.1:${closedPort()}` }).chart().catch((e) => e);
    expect(refused).toBeInstanceOf(DisconnectedError);
    let seen = 0;
    const hangUp = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          seen++;
          socket.end();
        },
      },
    });
    try {
      const err = await new GraphStatsClient({ baseUrl: `http://127.0.0.1:${hangUp.port}`, token: "t" }).chart().catch((e) => e);
      expect([err instanceof DisconnectedError, seen]).toEqual([true, 1]);
    } finally {
      hangUp.stop(true);
    }
  });
});

describe("limits", () => {
  test("RATE_LIMITED without wait is raised with retryAfter", async () => {
    const { name, token } = await fresh();
    await server.limits(name, 1, 100);
    const s = sleeps();
    const client = new GraphStatsClient({ baseUrl: server.url, token, wait: false, sleep: s.sleep });
    await client.chart({ include_graph: false });
    const err = await client.chart({ include_graph: false }).catch((e) => e);
    expect([err instanceof RateLimitedError, err.code, s.waits.length]).toEqual([true, "RATE_LIMITED", 0]);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.message).toContain(`Retry in ${err.retryAfter}s`);
  });

  test("RATE_LIMITED is waited out and retried once; refused again it is raised", async () => {
    const { name, token } = await fresh();
    await server.limits(name, 1, 100);
    // While the client waits the window moves on: here by raising the user's limit.
    const s = sleeps(() => server.limits(name, 2, 100));
    const client = new GraphStatsClient({ baseUrl: server.url, token, sleep: s.sleep });
    await client.chart({ include_graph: false });
    expect((await client.chart({ include_graph: false })).data.type).toBe("snapshot");
    expect(s.waits.length).toBe(1);
    expect(await server.usage(name)).toEqual({ admitted: 2, refused: 1, uncounted: 0 });
    const stuck = sleeps();
    const again = new GraphStatsClient({ baseUrl: server.url, token, sleep: stuck.sleep });
    expect(await again.chart({ include_graph: false }).catch((e) => e)).toBeInstanceOf(RateLimitedError);
    expect(stuck.waits.length).toBe(1);
    expect(await server.usage(name)).toEqual({ admitted: 2, refused: 3, uncounted: 0 });
  });

  test("a Retry-After over maxWait is raised at once", async () => {
    const { name, token } = await fresh();
    await server.limits(name, 1, 100);
    const s = sleeps();
    const client = new GraphStatsClient({ baseUrl: server.url, token, maxWait: 0.5, sleep: s.sleep });
    await client.chart({ include_graph: false });
    expect(await client.chart({ include_graph: false }).catch((e) => e)).toBeInstanceOf(RateLimitedError);
    expect(s.waits).toEqual([]);
  });

  test("DAILY_QUOTA_EXCEEDED is never retried and says when it resets", async () => {
    const { name, token } = await fresh();
    await server.limits(name, 100, 1);
    const s = sleeps();
    const client = new GraphStatsClient({ baseUrl: server.url, token, maxWait: 1e9, sleep: s.sleep });
    await client.chart({ include_graph: false });
    const err = await client.chart({ include_graph: false }).catch((e) => e);
    expect([err instanceof QuotaExceededError, err.code, s.waits.length]).toEqual([true, "DAILY_QUOTA_EXCEEDED", 0]);
    expect(await server.usage(name)).toEqual({ admitted: 1, refused: 1, uncounted: 0 });
    const stated = Date.parse(/Resets at (\S+Z)/.exec(err.message)![1]!);
    expect(new Date(stated).toISOString().slice(11)).toBe("00:00:00.000Z");
    expect(Math.abs(err.resetsAt.getTime() - stated)).toBeLessThanOrEqual(1000);
  });

  test("a 503 is raised without wait, and waited out and retried once with it", async () => {
    const { name, token } = await fresh();
    const hold = () => {
      const db = new Database(server.db);
      db.exec("BEGIN IMMEDIATE");
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        db.exec("ROLLBACK");
        db.close();
      };
    };
    let release = hold();
    try {
      const err = await new GraphStatsClient({ baseUrl: server.url, token, wait: false }).chart({ include_graph: false }).catch((e) => e);
      expect([err instanceof ServiceUnavailableError, err.status, err.retryAfter >= 1]).toEqual([true, 503, true]);
    } finally {
      release();
    }
    release = hold();
    const s = sleeps(() => release()); // the lock is let go while the client waits
    try {
      const r = await new GraphStatsClient({ baseUrl: server.url, token, sleep: s.sleep }).chart({ include_graph: false });
      expect([r.data.type, s.waits.length]).toEqual(["snapshot", 1]);
    } finally {
      release();
    }
    expect((await server.usage(name)).admitted).toBe(1);
  });
});
