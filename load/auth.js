// Bad credentials at a constant rate: every one must get 401 UNAUTHORIZED in the envelope with its exact
// message, never a 5xx and never an admission.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e JWT_SECRET=... -e RATE=50 load/auth.js
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { Counter } from "k6/metrics";
import { baseUrlFrom, durationFrom, intFrom } from "./lib/env.js";
import { checkChallenge } from "./lib/challenge.js";
import { checkEnvelope } from "./lib/envelope.js";
import { checkCommonHeaders, headerValue } from "./lib/headers.js";
import { badTokenCases } from "./lib/jwt.js";
import { NEVER, withDefaults } from "./lib/options.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, k6Signer, loadTokens, problemRecorder, tokenForVu } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const RATE = intFrom(__ENV, "RATE", 50);
const DURATION = durationFrom(__ENV, "DURATION", "30s");
const TOKENS = loadTokens(__ENV);
const admittedBad = new Counter("graphstats_auth_admitted");
const serverErrors = new Counter("graphstats_auth_5xx");
const wrongStatus = new Counter("graphstats_auth_wrong_status");
const record = problemRecorder("graphstats_auth_problems");

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: {
    auth: {
      executor: "constant-arrival-rate",
      rate: RATE,
      timeUnit: "1s",
      duration: DURATION,
      preAllocatedVUs: intFrom(__ENV, "VUS", 10),
      maxVUs: intFrom(__ENV, "MAX_VUS", 100),
      exec: "auth",
    },
  },
  thresholds: {
    graphstats_auth_admitted: NEVER,
    graphstats_auth_5xx: NEVER,
    graphstats_auth_wrong_status: NEVER,
    graphstats_auth_problems: NEVER,
    http_req_failed: ["rate==0"],
  },
});

// Here 401 is the only right answer for the abuse requests; anything else counts as a failed request.
// Set per request, not globally, so setup()'s own 200 from /health is not counted as failed.
const ONLY_401 = http.expectedStatuses(401);

export function setup() {
  checkTarget(BASE);
  const runId = `auth${Date.now()}`;
  const secret = __ENV.JWT_SECRET || null;
  const valid = TOKENS || secret ? tokenForVu(TOKENS, __ENV, 1, runId).token : null;
  const cases = badTokenCases({ nowSec: Math.floor(Date.now() / 1000), secret, validToken: valid, runId }, k6Signer);
  if (!secret) console.warn("JWT_SECRET not set: the expired, not-yet-valid, no-sub and HS512 cases are skipped");
  return { cases: cases };
}

/** @param {{ cases: import('./lib/jwt.js').BadTokenCase[] }} ctx */
export function auth(ctx) {
  const c = ctx.cases[exec.scenario.iterationInTest % ctx.cases.length];
  /** @type {Record<string, string>} */
  const headers = {};
  if (c.authorization !== null) headers.Authorization = c.authorization;
  const res = http.get(`${BASE}/v1/graph-stats/chart`, {
    headers,
    responseCallback: ONLY_401,
    tags: { name: "GET /v1/graph-stats/chart", case: c.name },
  });
  admittedBad.add(res.status >= 200 && res.status < 300 ? 1 : 0, { case: c.name });
  serverErrors.add(res.status >= 500 ? 1 : 0, { case: c.name });
  wrongStatus.add(res.status === 401 ? 0 : 1, { case: c.name });
  if (!check(res, { "bad credentials get 401": (r) => r.status === 401 })) return;

  const problems = checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: c.message }).concat(
    checkCommonHeaders(res.headers),
    checkChallenge(headerValue(res.headers, "WWW-Authenticate"), c),
  );
  record(`case ${c.name}`, problems);
  check(res, { "exact 401 envelope, message and challenge": () => problems.length === 0 });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, { script: "auth", baseUrl: BASE, extra: { rate_per_s: RATE, duration: DURATION } }, __ENV);
}
