// One pass over every endpoint; any deviation fails the run. PROFILE=core (the default) judges only what
// the interface binds, so any implementation of it passes; PROFILE=full adds graph-stats' own forms.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json load/smoke.js
import http from "k6/http";
import { check, sleep } from "k6";
import { baseUrlFrom, givenLimits, intFrom } from "./lib/env.js";
import { checkEnvelope, errorCode } from "./lib/envelope.js";
import { dataOf, expectedRefusal, liveEnvelopeProblems, queryHint } from "./lib/answers.js";
import { checkCommonHeaders, checkRateLimitHeaders, checkUnmetered, headerValue, parseRateLimits } from "./lib/headers.js";
import { withDefaults } from "./lib/options.js";
import { profileFrom } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, loadTokens, problemRecorder, requireTokenSource, runIdFor, tokenForVu } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const MAX_BURST = intFrom(__ENV, "SMOKE_MAX_BURST", 10);
const QUERY = __ENV.QUERY || "";
const GIVEN = givenLimits(__ENV);
const TOKENS = loadTokens(__ENV);
const LIVE = `${BASE}/v1/graph-stats/chart`;
const PLAIN = QUERY ? `${LIVE}?${QUERY}` : LIVE;
const TIMEOUT = "10s";
const record = problemRecorder("graphstats_smoke_problems", 50);

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  // At most one wait of a minute (a window already in use) and a dozen requests of TIMEOUT each.
  scenarios: { smoke: { executor: "per-vu-iterations", vus: 1, iterations: 1, exec: "smoke", maxDuration: "3m" } },
  thresholds: { checks: ["rate==1"], graphstats_smoke_problems: ["count==0"] },
});

// Every status smoke provokes on purpose is expected; the checks judge them.
http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, { min: 400, max: 499 }));

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
 * @param {number} want
 * @returns {string[]}
 */
function status(res, want) {
  return res.status === want ? [] : [`wrong-status: ${res.status}, expected ${want}`];
}

/**
 * @param {string} url
 * @param {Record<string, string>} [headers]
 */
function get(url, headers) {
  return http.get(url, { headers: headers || {}, timeout: TIMEOUT });
}

export function setup() {
  requireTokenSource(TOKENS, __ENV, 1, "smoke.js: one user");
  checkTarget(BASE, { profile: PROFILE });
  return { runId: runIdFor("smoke") };
}

/** @param {{ runId: string }} ctx */
export function smoke(ctx) {
  const nowSec = () => Date.now() / 1000;
  const full = PROFILE === "full";
  for (let i = 0; i < 2; i += 1) {
    const res = get(`${BASE}/health`);
    const health = dataOf(res.body);
    step(
      "GET /health is 200, without a token, unmetered",
      res,
      status(res, 200).concat(
        checkUnmetered(res.headers, "/health"),
        full ? checkEnvelope(res.body, { success: true }).concat(checkCommonHeaders(res.headers)) : [],
        full && !(health && health.status === "ok" && health.service === "graph-stats") ? ["bad-body: health data.status/service"] : [],
      ),
    );
  }

  // Public: without a token, and with a garbage one, which it ignores (docs/api.md § GET /v1/demo/chart).
  /** @type {[string, Record<string, string>][]} */
  const demoCalls = [
    ["without a token", {}],
    ["ignoring a garbage Authorization", { Authorization: "Bearer garbage", Origin: "http://127.0.0.1:9" }],
  ];
  /** @type {import('k6/http').RefinedResponse<any>} */
  let res;
  for (const [how, headers] of demoCalls) {
    res = get(`${BASE}/v1/demo/chart`, headers);
    const demo = dataOf(res.body);
    step(
      `GET /v1/demo/chart is 200, unmetered, ${how}`,
      res,
      status(res, 200).concat(
        checkUnmetered(res.headers, "/v1/demo/chart"),
        full
          ? checkEnvelope(res.body, { success: true, stocks: true }).concat(
              checkCommonHeaders(res.headers),
              demo && demo.type === "snapshot" ? [] : ["bad-body: demo data.type is not snapshot"],
              headers.Origin && !headerValue(res.headers, "Access-Control-Allow-Origin")
                ? ["missing-header: Access-Control-Allow-Origin on demo"]
                : [],
            )
          : [],
      ),
    );
  }

  if (full) {
    res = get(`${BASE}/v1/demo/chart?periods=3`);
    const rolling = dataOf(res.body);
    step(
      "GET /v1/demo/chart?periods=3 is rolling",
      res,
      checkEnvelope(res.body, { success: true, stocks: true }).concat(
        rolling && rolling.type === "rolling" ? [] : ["bad-body: demo periods=3 data.type is not rolling"],
      ),
    );
  }

  res = get(PLAIN);
  step(
    "live without a token is refused in the error envelope",
    res,
    full
      ? checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: "missing bearer token" }).concat(
          checkCommonHeaders(res.headers),
          /^Bearer realm="graph-stats"/.test(headerValue(res.headers, "WWW-Authenticate") || "") ? [] : ["bad-header: WWW-Authenticate"],
        )
      : (res.status >= 400 && res.status < 500 ? [] : [`wrong-status: ${res.status}, expected a 4xx refusal`]).concat(
          checkEnvelope(res.body, { success: false }, "core"),
        ),
  );

  const auth = { Authorization: `Bearer ${tokenForVu(TOKENS, __ENV, 1, ctx.runId).token}` };
  if (full) {
    // Only graph-stats validates before metering (docs/api.md § Refused before metering); elsewhere a bad
    // parameter may use the window up.
    res = get(`${LIVE}?lookback=5000`, auth);
    step(
      "live with a bad parameter is 400",
      res,
      checkEnvelope(res.body, { success: false, code: "BAD_REQUEST", message: /lookback/ }).concat(
        checkRateLimitHeaders(res.headers, 400, "BAD_REQUEST", nowSec(), { given: GIVEN }),
      ),
    );
  }

  res = get(PLAIN, auth);
  if (res.status === 429 && errorCode(res.body) === "RATE_LIMITED") {
    // The user was used within the last minute (a TOKENS file reused across runs): wait once, as a client should.
    sleep(Math.min(61, Number(headerValue(res.headers, "Retry-After")) || 61));
    res = get(PLAIN, auth);
  }
  const hint = queryHint(res, QUERY);
  step(
    "live with a token is 200 with the five rate-limit headers",
    res,
    status(res, 200).concat(
      hint ? [`wrong-status: ${hint}`] : [],
      liveEnvelopeProblems(res, PROFILE),
      checkCommonHeaders(res.headers, PROFILE),
      checkRateLimitHeaders(res.headers, 200, null, nowSec(), { profile: PROFILE, given: GIVEN }),
      full && headerValue(res.headers, "Cache-Control") !== "no-store" ? ["bad-header: live Cache-Control is not no-store"] : [],
    ),
  );

  const lim = parseRateLimits(res.headers);
  if (res.status === 200 && lim.remaining !== null && lim.remaining < MAX_BURST) {
    const want = expectedRefusal(lim.remaining, lim.dailyRemaining);
    for (let i = 0; i < lim.remaining; i += 1) http.get(PLAIN, { headers: auth, timeout: TIMEOUT, tags: { name: "live fill window" } });
    res = get(PLAIN, auth);
    step(
      "live over the minute limit is 429 with Retry-After, the five headers and its code",
      res,
      status(res, 429).concat(
        liveEnvelopeProblems(res, PROFILE),
        checkCommonHeaders(res.headers, PROFILE),
        checkRateLimitHeaders(res.headers, 429, errorCode(res.body), nowSec(), { profile: PROFILE, given: GIVEN }),
        want === null || errorCode(res.body) === want ? [] : [`wrong-code: expected ${want}, got ${errorCode(res.body)}`],
      ),
    );
  } else if (res.status === 200) {
    console.warn(`skipping the 429 step: X-RateLimit-Remaining ${lim.remaining} is not below SMOKE_MAX_BURST ${MAX_BURST}`);
  }

  if (full) {
    res = get(`${BASE}/no-such-route`);
    step(
      "unknown route is 404",
      res,
      checkEnvelope(res.body, { success: false, code: "NOT_FOUND" }).concat(checkCommonHeaders(res.headers)),
    );

    res = http.post(LIVE, null, { headers: auth, timeout: TIMEOUT });
    step(
      "POST on the live path is 405",
      res,
      checkEnvelope(res.body, { success: false, code: "METHOD_NOT_ALLOWED" }).concat(
        /\bGET\b/.test(headerValue(res.headers, "Allow") || "") ? [] : ["missing-header: Allow: GET on 405"],
      ),
    );
  }
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(data, { script: "smoke", baseUrl: BASE, extra: { profile: PROFILE } }, __ENV);
}
