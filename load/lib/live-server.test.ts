// The lib checks against REAL responses of the real server (the compiled binary of these sources, on a temp database):
// every check that should pass does, and the limiter ledger judges a real concurrent burst.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverBinary } from "../../test/support/binary.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { mintTokens, startServer, type RunningServer } from "../runner/server.ts";
import { checkEnvelope, errorCode } from "./envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders, checkUnmetered, headerValue, parseRateLimits } from "./headers.js";
import { badTokenCases, casesFor, type Signer } from "./jwt.js";
import { refusalProblems } from "./answers.js";
import { checkChallenge } from "./challenge.js";
import { parseTokenList } from "./tokens.js";
import { createLedger, type Observation } from "./admission.js";
import { DEFAULT_LIVE_QUERY, liveAnswer } from "./live.js";
import { DEFAULT_FIRST_ASOF, DEFAULT_HEAVY_QUERY, DEFAULT_LAST_ASOF, dateOption, heavyQuery } from "./heavy.js";

const signer: Signer = {
  b64url: (t) => Buffer.from(t, "utf8").toString("base64url"),
  hmac: (alg, secret, data) => createHmac(alg, secret).update(data).digest("base64url"),
};
const SECRET = "live-test-secret-0123456789";
const PER_MINUTE = 2;
let dir: string;
let server: RunningServer;
let tokens: { user: string; token: string }[];
let command: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gs-load-live-"));
  command = [await serverBinary()];
  const db = sampleDb(join(dir, "db.sqlite")); // holding the sample already: the server need not load it
  server = await startServer({ command, dbPath: db, secret: SECRET, ratePerMinute: PER_MINUTE, ratePerDay: 1000 });
  tokens = parseTokenList(await mintTokens(command, db, SECRET, 4, "live-"), "token create output");
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}
const auth = (i: number) => ({ Authorization: `Bearer ${tokens[i].token}` });
const now = () => Date.now() / 1000;

describe("lib checks on real responses", () => {
  test("health and demo pass the envelope and common-header checks", async () => {
    const health = await get("/health");
    expect([health.status, ...checkEnvelope(health.body, { success: true }), ...checkCommonHeaders(health.headers)]).toEqual([200]);
    const demo = await get("/v1/demo/chart", { Authorization: "Bearer garbage" });
    expect([demo.status, ...checkEnvelope(demo.body, { success: true, stocks: true }), ...checkCommonHeaders(demo.headers)]).toEqual([200]);
    expect(headerValue(demo.headers, "X-RateLimit-Limit")).toBeNull();
  });

  test("every bad credential of auth.js gets its exact 401", async () => {
    const cases = badTokenCases({ nowSec: Math.floor(now()), secret: SECRET, validToken: tokens[3].token, runId: "live" }, signer);
    for (const c of cases) {
      const res = await get("/v1/graph-stats/chart", c.authorization === null ? {} : { Authorization: c.authorization });
      const problems = checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: c.message });
      expect({ name: c.name, status: res.status, problems }).toEqual({ name: c.name, status: 401, problems: [] });
      const challenge = checkChallenge(headerValue(res.headers, "WWW-Authenticate"), c);
      expect({ name: c.name, challenge }).toEqual({ name: c.name, challenge: [] });
    }
  });

  test("400, 200 and 429 on the live endpoint pass the rate-limit header checks", async () => {
    const bad = await get("/v1/graph-stats/chart?lookback=5000", auth(0));
    expect([
      bad.status,
      ...checkEnvelope(bad.body, { success: false, code: "BAD_REQUEST", message: /lookback/ }),
      ...checkRateLimitHeaders(bad.headers, 400, "BAD_REQUEST", now()),
    ]).toEqual([400]);
    for (let i = 0; i < PER_MINUTE; i++) {
      const ok = await get("/v1/graph-stats/chart?include_graph=false", auth(0));
      expect([
        ok.status,
        ...checkEnvelope(ok.body, { success: true, stocks: true }),
        ...checkRateLimitHeaders(ok.headers, 200, null, now()),
      ]).toEqual([200]);
      expect(parseRateLimits(ok.headers).remaining).toBe(PER_MINUTE - 1 - i);
    }
    const limited = await get("/v1/graph-stats/chart", auth(0));
    const retry = headerValue(limited.headers, "Retry-After");
    expect([
      limited.status,
      ...checkEnvelope(limited.body, {
        success: false,
        code: "RATE_LIMITED",
        message: `rate limit exceeded: ${PER_MINUTE} requests/minute. Retry in ${retry}s.`,
      }),
      ...checkRateLimitHeaders(limited.headers, 429, errorCode(limited.body), now()),
      ...checkCommonHeaders(limited.headers),
    ]).toEqual([429]);
  });

  test("a header check fails on a real response that lacks what it needs", async () => {
    const unauthorized = await get("/v1/graph-stats/chart");
    expect(checkRateLimitHeaders(unauthorized.headers, 401, "UNAUTHORIZED", now())).toContain("missing-header: X-RateLimit-Limit");
  });

  test("a real concurrent burst admits exactly the limit and the ledger agrees", async () => {
    const ledger = createLedger();
    const startMs = Date.now();
    const burst = await Promise.all(Array.from({ length: 5 }, () => get("/v1/graph-stats/chart?include_graph=false", auth(1))));
    const endMs = Date.now();
    const obs: Observation[] = burst.map((r) => {
      const lim = parseRateLimits(r.headers);
      return { startMs, endMs, status: r.status, code: errorCode(r.body), remaining: lim.remaining, dailyRemaining: lim.dailyRemaining };
    });
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 429, 429, 429]);
    const clean = {
      admitted: 2,
      rejected: 3,
      windowAdmissions: 2,
      overAdmitted: 0,
      underAdmitted: 0,
      dailyOverAdmitted: 0,
      staleRemaining: 0,
    };
    expect(ledger.recordBurst(obs, { perMinute: PER_MINUTE, perDay: 1000 })).toEqual(clean);
    // The core profile's ledger (windows as the answers announce them) agrees on the sliding window.
    const announced = obs.map((o, i) => ({ ...o, reset: parseRateLimits(burst[i]!.headers).reset }));
    expect(createLedger({ windows: "announced" }).recordBurst(announced, { perMinute: PER_MINUTE, perDay: 1000 })).toEqual(clean);
  });

  test("the core profile asks nothing graph-stats does not do: its bad-credential and live answers pass core too", async () => {
    const all = badTokenCases({ nowSec: Math.floor(now()), secret: SECRET, validToken: tokens[3].token, runId: "core" }, signer);
    for (const c of casesFor(all, "core")) {
      const res = await get("/v1/graph-stats/chart", c.authorization === null ? {} : { Authorization: c.authorization });
      expect({ name: c.name, problems: refusalProblems(res, c, "core") }).toEqual({ name: c.name, problems: [] });
    }
    const health = await get("/health");
    expect(checkUnmetered(health.headers, "/health")).toEqual([]);
  });

  test("unknown route and wrong method keep the envelope", async () => {
    const missing = await get("/no-such-route");
    expect([missing.status, ...checkEnvelope(missing.body, { success: false, code: "NOT_FOUND" })]).toEqual([404]);
    const post = await get("/v1/graph-stats/chart", auth(2), "POST");
    expect([post.status, ...checkEnvelope(post.body, { success: false, code: "METHOD_NOT_ALLOWED" })]).toEqual([405]);
    expect(headerValue(post.headers, "Allow")).toContain("GET");
  });
});

describe("live.js's check on the real live endpoint", () => {
  test("its query is answered, then answered from the result cache, and both answers pass liveAnswer", async () => {
    const first = await get(`/v1/graph-stats/chart?${DEFAULT_LIVE_QUERY}`, auth(2));
    const second = await get(`/v1/graph-stats/chart?${DEFAULT_LIVE_QUERY}`, auth(3));
    expect([first.status, ...liveAnswer(first, now()).problems]).toEqual([200]);
    expect([second.status, ...liveAnswer(second, now()).problems]).toEqual([200]);
    expect(liveAnswer(second, now()).cached).toBe(true);
    // k6 with responseType "none": the same verdict from the headers alone.
    expect(liveAnswer({ ...second, body: null }, now())).toEqual({ problems: [], cached: null });
  });
});

describe("compute.js's heavy queries on the real server (its sample universe)", () => {
  test("the first, the last and a second-round query all compute (200, not cached) in the default range", async () => {
    const heavyTokens = parseTokenList(await mintTokens(command, join(dir, "db.sqlite"), SECRET, 3, "heavy-"), "token create output");
    const opts = {
      baseQuery: DEFAULT_HEAVY_QUERY,
      firstMs: dateOption("FIRST_ASOF", DEFAULT_FIRST_ASOF),
      lastMs: dateOption("LAST_ASOF", DEFAULT_LAST_ASOF),
    };
    const span = (opts.lastMs - opts.firstMs) / 86400000 + 1;
    for (const [k, n] of [0, span - 1, span].entries()) {
      const res = await get(`/v1/graph-stats/chart?${heavyQuery(n, opts)}`, { Authorization: `Bearer ${heavyTokens[k]!.token}` });
      expect([res.status, ...checkEnvelope(res.body, { success: true })]).toEqual([200]);
      expect(JSON.parse(res.body).meta.diagnostics.cached).toBe(false);
    }
  }, 60_000);
});
