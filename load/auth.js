// Bad credentials at a constant rate: every one must be refused in the error envelope, never a 5xx and
// never an admission; an expired token gets 401 UNAUTHORIZED saying so. PROFILE=full: every one gets 401
// UNAUTHORIZED with its exact message and graph-stats' challenge.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e JWT_SECRET=... -e RATE=50 load/auth.js
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { Counter } from "k6/metrics";
import { baseUrlFrom, durationFrom, intFrom } from "./lib/env.js";
import { refusalProblems } from "./lib/answers.js";
import { badTokenCases, casesFor } from "./lib/jwt.js";
import { NEVER, NEVER_ABORT, withDefaults } from "./lib/options.js";
import { profileFrom } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, k6Signer, loadTokens, problemRecorder, runIdFor, tokenForVu } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const PROFILE = profileFrom(__ENV);
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
      // Requests time out after 10 s, so the run ends at most that long after DURATION.
      gracefulStop: "10s",
      exec: "auth",
    },
  },
  thresholds: {
    // A bad credential admitted stops the run at once.
    graphstats_auth_admitted: NEVER_ABORT,
    graphstats_auth_5xx: NEVER,
    graphstats_auth_wrong_status: NEVER,
    graphstats_auth_problems: NEVER,
    http_req_failed: ["rate==0"],
  },
});

// The right answers to the abuse requests (401 in full, a 4xx refusal in core); anything else counts as a
// failed request. Set per request, not globally, so setup()'s own 200 from /health is not counted as failed.
const REFUSED = PROFILE === "full" ? http.expectedStatuses(401) : http.expectedStatuses({ min: 400, max: 499 });

export function setup() {
  checkTarget(BASE, { profile: PROFILE });
  const runId = runIdFor("auth");
  const secret = __ENV.JWT_SECRET || null;
  const valid = TOKENS || secret ? tokenForVu(TOKENS, __ENV, 1, runId).token : null;
  const all = badTokenCases(
    { nowSec: Math.floor(Date.now() / 1000), secret, validToken: valid, runId, expiredToken: __ENV.EXPIRED_TOKEN || null },
    k6Signer,
  );
  if (!secret) {
    console.warn(
      `JWT_SECRET not set: the ${__ENV.EXPIRED_TOKEN ? "" : "expired (or pass -e EXPIRED_TOKEN=...), "}not-yet-valid, no-sub and HS512 cases are skipped`,
    );
  }
  return { cases: casesFor(all, PROFILE) };
}

/** @param {{ cases: import('./lib/jwt.js').BadTokenCase[] }} ctx */
export function auth(ctx) {
  const c = ctx.cases[exec.scenario.iterationInTest % ctx.cases.length];
  /** @type {Record<string, string>} */
  const headers = {};
  if (c.authorization !== null) headers.Authorization = c.authorization;
  const res = http.get(`${BASE}/v1/graph-stats/chart`, {
    headers,
    responseCallback: REFUSED,
    timeout: "10s",
    tags: { name: "GET /v1/graph-stats/chart", case: c.name },
  });
  const refused = PROFILE === "full" ? res.status === 401 : res.status >= 400 && res.status < 500;
  admittedBad.add(res.status >= 200 && res.status < 300 ? 1 : 0, { case: c.name });
  serverErrors.add(res.status >= 500 ? 1 : 0, { case: c.name });
  wrongStatus.add(refused ? 0 : 1, { case: c.name });
  if (!check(res, { "bad credentials are refused": () => refused })) return;

  const problems = refusalProblems(res, c, PROFILE);
  record(`case ${c.name}`, problems);
  check(res, { "the refusal's envelope (full: exact 401, message and challenge)": () => problems.length === 0 });
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, { script: "auth", baseUrl: BASE, extra: { profile: PROFILE, rate_per_s: RATE, duration: DURATION } }, __ENV);
}
