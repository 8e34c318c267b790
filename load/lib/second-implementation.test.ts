// The core profile's checks against REAL answers of the second implementation (conformance/
// second-implementation/, Python, other choices wherever the interface is silent): everything core asks
// of it holds, and through each mutant of runner/mutants.ts the check guarding what it breaks fails. The
// same proof under the real k6 runs in CI (load/ci-k6.ts, runner/fairness.ts); here it runs without k6,
// whose start alone costs about 9 s of CPU per run (its Babel), in about a second.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, randomUUID } from "node:crypto";
import { startMutantProxy } from "../../conformance/mutants/proxy.ts";
import { PYTHON, type PyServer, startSecondImplementation } from "../../conformance/second-implementation/process.ts";
import { loadMutant } from "../runner/mutants.ts";
import { createLedger, type Observation } from "./admission.js";
import { expectedRefusal, liveEnvelopeProblems, refusalProblems } from "./answers.js";
import { errorCode } from "./envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders, checkUnmetered, parseRateLimits } from "./headers.js";
import { badTokenCases, casesFor, mintServiceToken, type Signer } from "./jwt.js";

const signer: Signer = {
  b64url: (t) => Buffer.from(t, "utf8").toString("base64url"),
  hmac: (alg, secret, data) => createHmac(alg, secret).update(data).digest("base64url"),
};
const SECRET = `load-second-impl-${randomUUID()}`;
const LIVE = "/v1/graph-stats/chart?interval=1d";
const now = () => Date.now() / 1000;
const token = (user = `load-py-${randomUUID()}`) =>
  mintServiceToken(SECRET, { sub: user, nowSec: Math.floor(now()), jti: randomUUID() }, signer);

type Answer = { status: number; headers: Record<string, string>; body: string };
async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}
/** A fresh user's 200 and, once its minute (A) or day (B) is used up, its 429. */
async function okThenRefused(base: string, perMinute: number): Promise<{ ok: Answer; refused: Answer }> {
  const auth = { Authorization: `Bearer ${token()}` };
  const ok = await get(base, LIVE, auth);
  for (let i = 1; i < perMinute; i += 1) await get(base, LIVE, auth);
  return { ok, refused: await get(base, LIVE, auth) };
}
const liveProblems = (r: Answer) =>
  liveEnvelopeProblems(r, "core").concat(checkRateLimitHeaders(r.headers, r.status, errorCode(r.body), now(), { profile: "core" }));

/** A concurrent burst of one fresh user, judged by the core ledger as limits.js judges it. */
async function burst(base: string, size: number) {
  const auth = { Authorization: `Bearer ${token()}` };
  const startMs = Date.now();
  const answers = await Promise.all(Array.from({ length: size }, () => get(base, LIVE, auth)));
  const endMs = Date.now();
  const obs: Observation[] = answers.map((r) => {
    const lim = parseRateLimits(r.headers);
    const code = r.status === 200 ? null : errorCode(r.body);
    return { startMs, endMs, status: r.status, code, remaining: lim.remaining, dailyRemaining: lim.dailyRemaining, reset: lim.reset };
  });
  const lim = parseRateLimits(answers[0]!.headers);
  return createLedger({ windows: "announced" }).recordBurst(obs, { perMinute: lim.limit ?? 0, perDay: lim.dailyLimit ?? 0 });
}

if (!PYTHON) {
  test.skip("second implementation: python3 is not on PATH, so server.py cannot start", () => {});
} else {
  let a: PyServer;
  let b: PyServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startSecondImplementation({ secret: SECRET, perMinute: 2, perDay: 1000 }),
      startSecondImplementation({ secret: SECRET, perMinute: 5, perDay: 3 }),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  describe("core checks on the second implementation's answers: nothing to report", () => {
    test("/health and the demo answer without a token, unmetered; graph-stats' headers are not asked for", async () => {
      const health = await get(a.url, "/health");
      const demo = await get(a.url, "/v1/demo/chart", { Authorization: "Bearer garbage" });
      expect([health.status, ...checkUnmetered(health.headers, "/health"), demo.status, ...checkUnmetered(demo.headers, "demo")]).toEqual([
        200, 200,
      ]);
      // What full asks, which this implementation rightly does otherwise (no charset, no X-Request-Id).
      expect(checkCommonHeaders(health.headers, "full").length).toBeGreaterThan(0);
    });

    test("every core bad credential is refused in the envelope; the expired token is 401 UNAUTHORIZED", async () => {
      const all = badTokenCases({ nowSec: Math.floor(now()), secret: SECRET, validToken: token(), runId: "py" }, signer);
      for (const c of casesFor(all, "core")) {
        const res = await get(a.url, LIVE, c.authorization === null ? {} : { Authorization: c.authorization });
        expect({ name: c.name, problems: refusalProblems(res, c, "core") }).toEqual({ name: c.name, problems: [] });
      }
      // Its codes are its own (MISSING_TOKEN, INVALID_TOKEN): full rightly differs.
      const missing = await get(a.url, LIVE);
      expect(refusalProblems(missing, all[0]!, "full")).toContain("wrong-code: expected UNAUTHORIZED, got MISSING_TOKEN");
    });

    test("a 200 and RATE_LIMITED (2/minute) carry the envelope, the five headers and Retry-After", async () => {
      const { ok, refused } = await okThenRefused(a.url, 2);
      expect([ok.status, refused.status, errorCode(refused.body)]).toEqual([200, 429, "RATE_LIMITED"]);
      expect([...liveProblems(ok), ...liveProblems(refused)]).toEqual([]);
      const lim = parseRateLimits(ok.headers);
      expect(expectedRefusal(lim.remaining! - 1, lim.dailyRemaining)).toBe("RATE_LIMITED");
      // The IETF RateLimit headers are graph-stats' own.
      expect(checkRateLimitHeaders(ok.headers, 200, null, now())).toContain("missing-header: RateLimit-Policy");
    });

    test("DAILY_QUOTA_EXCEEDED (3/day under 5/minute) in the envelope, with the five headers and Retry-After", async () => {
      const { refused } = await okThenRefused(b.url, 3);
      expect([refused.status, errorCode(refused.body), ...liveProblems(refused)]).toEqual([429, "DAILY_QUOTA_EXCEEDED"]);
    });

    test("a concurrent burst admits exactly the announced limit, as the core ledger judges it", async () => {
      const v = await burst(a.url, 5);
      expect({ admitted: v.admitted, over: v.overAdmitted, stale: v.staleRemaining }).toEqual({ admitted: 2, over: 0, stale: 0 });
    });
  });

  describe("through each mutant, the core check guarding what it breaks fails", () => {
    async function through<T>(mutant: string, upstream: string, fn: (url: string) => Promise<T>): Promise<T> {
      const proxy = startMutantProxy(upstream, loadMutant(mutant));
      try {
        return await fn(proxy.url);
      } finally {
        await proxy.stop();
      }
    }

    test("over-admission: the burst's ledger counts more admissions than the limit", async () => {
      const v = await through("over-admission", a.url, (url) => burst(url, 5));
      expect(v.overAdmitted).toBe(3);
    });
    test("drop-retry-after, drop-ratelimit-on-429, 429-codes-swapped: the 429's headers are wrong", async () => {
      const problems = async (mutant: string) => through(mutant, a.url, async (url) => liveProblems((await okThenRefused(url, 2)).refused));
      expect(await problems("drop-retry-after")).toContain("missing-header: Retry-After on 429");
      expect(await problems("drop-ratelimit-on-429")).toContain("missing-header: X-RateLimit-Limit");
      expect(await problems("429-codes-swapped")).toContain("bad-header: DAILY_QUOTA_EXCEEDED with X-RateLimit-Daily-Remaining 998");
      const daily = await through("429-codes-swapped", b.url, async (url) => liveProblems((await okThenRefused(url, 3)).refused));
      expect(daily).toContain("bad-header: RATE_LIMITED with X-RateLimit-Remaining 2");
    });
    test("success-as-string: the envelope is wrong", async () => {
      const ok = await through("success-as-string", a.url, async (url) => (await okThenRefused(url, 1)).ok);
      expect(liveProblems(ok)).toContain("bad-envelope: success is not a boolean");
    });
    test("expired-accepted: the expired token is admitted", async () => {
      const all = badTokenCases({ nowSec: Math.floor(now()), secret: SECRET, validToken: null, runId: "py" }, signer);
      const expired = all.find((c) => c.name === "expired")!;
      const res = await through("expired-accepted", a.url, (url) => get(url, LIVE, { Authorization: expired.authorization! }));
      expect(refusalProblems(res, expired, "core")).toEqual(["wrong-status: 200, expected a 4xx refusal"]);
    });
    test("demo-demands-token: the demo refuses a request without a token", async () => {
      expect((await through("demo-demands-token", a.url, (url) => get(url, "/v1/demo/chart"))).status).toBe(401);
    });
  });
}
