// One pass over every endpoint; any deviation from the interface fails the run.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json load/smoke.js
import http from "k6/http";
import { check, sleep } from "k6";
import { baseUrlFrom, intFrom } from "./lib/env.js";
import { checkEnvelope, errorCode, parseBody } from "./lib/envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders, headerValue, parseRateLimits } from "./lib/headers.js";
import { NEVER, withDefaults } from "./lib/options.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, loadTokens, problemRecorder, requireTokenSource, tokenForVu } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const MAX_BURST = intFrom(__ENV, "SMOKE_MAX_BURST", 10);
const TOKENS = loadTokens(__ENV);
const LIVE = `${BASE}/v1/graph-stats/chart`;
const record = problemRecorder("graphstats_smoke_problems", 50);

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: { smoke: { executor: "per-vu-iterations", vus: 1, iterations: 1, exec: "smoke", maxDuration: "3m" } },
  thresholds: { checks: ["rate==1"], graphstats_smoke_problems: NEVER },
});

// Every status smoke provokes on purpose is expected; the checks judge them.
http.setResponseCallback(http.expectedStatuses(200, 400, 401, 404, 405, 429));

/**
 * @param {string} name
 * @param {import('k6/http').RefinedResponse<any>} res
 * @param {string[]} problems
 */
function step(name, res, problems) {
  const all = res.status === 0 ? [`no-response: ${res.error}`].concat(problems) : problems;
  record(name, all);
  check(res, { [name]: () => all.length === 0 });
}

/**
 * @param {import('k6/http').RefinedResponse<any>} res
 * @returns {any}
 */
function data(res) {
  const p = parseBody(res.body);
  return "value" in p && p.value ? p.value.data : null;
}

export function setup() {
  requireTokenSource(TOKENS, __ENV, 1);
  checkTarget(BASE);
  return { runId: `smoke${Date.now()}` };
}

/** @param {{ runId: string }} ctx */
export function smoke(ctx) {
  const nowSec = () => Date.now() / 1000;
  let res = http.get(`${BASE}/health`);
  const health = data(res);
  step(
    "GET /health is 200 ok",
    res,
    checkEnvelope(res.body, { success: true }).concat(
      checkCommonHeaders(res.headers),
      health && health.status === "ok" && health.service === "graph-stats" ? [] : ["bad-body: health data.status/service"],
    ),
  );

  res = http.get(`${BASE}/v1/demo/chart`, { headers: { Authorization: "Bearer garbage", Origin: "http://127.0.0.1:9" } });
  const demo = data(res);
  step(
    "GET /v1/demo/chart is a public snapshot",
    res,
    checkEnvelope(res.body, { success: true, stocks: true }).concat(
      checkCommonHeaders(res.headers),
      demo && demo.type === "snapshot" ? [] : ["bad-body: demo data.type is not snapshot"],
      headerValue(res.headers, "X-RateLimit-Limit") === null ? [] : ["bad-header: demo must not be metered"],
      headerValue(res.headers, "Access-Control-Allow-Origin") ? [] : ["missing-header: Access-Control-Allow-Origin on demo"],
    ),
  );

  res = http.get(`${BASE}/v1/demo/chart?periods=3`);
  const rolling = data(res);
  step(
    "GET /v1/demo/chart?periods=3 is rolling",
    res,
    checkEnvelope(res.body, { success: true, stocks: true }).concat(
      rolling && rolling.type === "rolling" ? [] : ["bad-body: demo periods=3 data.type is not rolling"],
    ),
  );

  res = http.get(LIVE);
  step(
    "live without a token is 401",
    res,
    checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: "missing bearer token" }).concat(
      checkCommonHeaders(res.headers),
      /^Bearer realm="graph-stats"/.test(headerValue(res.headers, "WWW-Authenticate") || "") ? [] : ["bad-header: WWW-Authenticate"],
    ),
  );

  const auth = { Authorization: `Bearer ${tokenForVu(TOKENS, __ENV, 1, ctx.runId).token}` };
  res = http.get(`${LIVE}?lookback=5000`, { headers: auth });
  step(
    "live with a bad parameter is 400",
    res,
    checkEnvelope(res.body, { success: false, code: "BAD_REQUEST", message: /lookback/ }).concat(
      checkRateLimitHeaders(res.headers, 400, "BAD_REQUEST", nowSec()),
    ),
  );

  res = http.get(LIVE, { headers: auth });
  if (res.status === 429 && errorCode(res.body) === "RATE_LIMITED") {
    // The user was used within the last minute (a TOKENS file reused across runs): wait once, as a client should.
    sleep(Math.min(61, Number(headerValue(res.headers, "Retry-After")) || 61));
    res = http.get(LIVE, { headers: auth });
  }
  step(
    "live with a token is 200",
    res,
    checkEnvelope(res.body, { success: true, stocks: true }).concat(
      checkCommonHeaders(res.headers),
      checkRateLimitHeaders(res.headers, 200, null, nowSec()),
      headerValue(res.headers, "Cache-Control") === "no-store" ? [] : ["bad-header: live Cache-Control is not no-store"],
    ),
  );

  const lim = parseRateLimits(res.headers);
  if (lim.remaining !== null && lim.remaining < MAX_BURST) {
    for (let i = 0; i < lim.remaining; i += 1) http.get(LIVE, { headers: auth, tags: { name: "live fill window" } });
    res = http.get(LIVE, { headers: auth });
    const retry = headerValue(res.headers, "Retry-After");
    const noun = lim.limit === 1 ? "request" : "requests";
    step(
      "live over the minute limit is 429 RATE_LIMITED",
      res,
      checkEnvelope(res.body, {
        success: false,
        code: "RATE_LIMITED",
        message: `rate limit exceeded: ${lim.limit} ${noun}/minute. Retry in ${retry}s.`,
      }).concat(checkCommonHeaders(res.headers), checkRateLimitHeaders(res.headers, 429, errorCode(res.body), nowSec())),
    );
  } else {
    console.warn(`skipping the 429 step: X-RateLimit-Remaining ${lim.remaining} is not below SMOKE_MAX_BURST ${MAX_BURST}`);
  }

  res = http.get(`${BASE}/no-such-route`);
  step("unknown route is 404", res, checkEnvelope(res.body, { success: false, code: "NOT_FOUND" }).concat(checkCommonHeaders(res.headers)));

  res = http.post(LIVE, null, { headers: auth });
  step(
    "POST on the live path is 405",
    res,
    checkEnvelope(res.body, { success: false, code: "METHOD_NOT_ALLOWED" }).concat(
      /\bGET\b/.test(headerValue(res.headers, "Allow") || "") ? [] : ["missing-header: Allow: GET on 405"],
    ),
  );
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, { script: "smoke", baseUrl: BASE }, __ENV);
}
