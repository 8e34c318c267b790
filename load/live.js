// Open loop on the metered endpoint: a constant arrival rate of GET /v1/graph-stats/chart with one fixed
// small query, so after the warm-up request of setup() every answer comes from the result cache. Each
// iteration is the next user's request, round-robin over USERS users; the limits must let every one in.
// What it measures is the live path itself: token check, user lookup, the metering transaction, the cache.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json -e RATE=500 -e USERS=1000 load/live.js
// (the server needs --rate-per-minute 63 --rate-per-day 1000 for that; `npm run load -- live` sets them)
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";
import { baseUrlFrom, durationFrom, durationSeconds, intFrom, numberFrom } from "./lib/env.js";
import { DEFAULT_LIVE_QUERY, dueMs, limitsForRun, liveAnswer, requestsPerUser, userIndex, vusForRate } from "./lib/live.js";
import { NEVER, latency, withDefaults } from "./lib/options.js";
import { profileFrom, thresholdsFor } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, loadTokens, problemRecorder, requireTokenSource, runIdFor, tokenForVu } from "./lib/k6-support.js";
import { requireTokens } from "./lib/tokens.js";
import { parseRateLimits } from "./lib/headers.js";

const BASE = baseUrlFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const RATE = intFrom(__ENV, "RATE", 500);
const DURATION = durationFrom(__ENV, "DURATION", "1m");
const USERS = intFrom(__ENV, "USERS", 1000);
const QUERY = __ENV.QUERY || DEFAULT_LIVE_QUERY;
const SIZED = vusForRate(RATE);
const VUS = intFrom(__ENV, "VUS", SIZED.preAllocated);
const MAX_VUS = intFrom(__ENV, "MAX_VUS", Math.max(VUS, SIZED.max));
const P99_MS = numberFrom(__ENV, "P99_MS", 5);
const P95_MS = numberFrom(__ENV, "P95_MS", P99_MS);
// Iterations k6 could not start (no free VU): a fraction of those due, 0.1% by default.
const DROPPED_RATE = numberFrom(__ENV, "DROPPED_RATE", 0.001);
// Check the body (envelope, diagnostics.cached) of every Nth answer only; status and headers always.
const CHECK_EVERY = intFrom(__ENV, "CHECK_EVERY", 1);
const TOKENS = loadTokens(__ENV);
const URL = `${BASE}/v1/graph-stats/chart?${QUERY}`;

const record = problemRecorder("graphstats_live_problems");
const limited = new Counter("graphstats_live_rate_limited");
const uncached = new Counter("graphstats_live_uncached");
// How late k6 started each iteration after it was due: k6's http_req_duration starts at the send, so a
// k6 too busy to send on time hides its delay there; this shows it (in a run that dropped nothing).
const startLag = new Trend("graphstats_live_start_lag", true);

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: {
    live: {
      executor: "constant-arrival-rate",
      rate: RATE,
      timeUnit: "1s",
      duration: DURATION,
      preAllocatedVUs: VUS,
      maxVUs: MAX_VUS,
      exec: "live",
    },
  },
  thresholds: thresholdsFor(
    PROFILE,
    {
      "http_req_duration{scenario:live}": latency(P95_MS, P99_MS),
      http_req_failed: ["rate==0"],
      checks: ["rate==1"],
      dropped_iterations: [`count<=${Math.floor(DROPPED_RATE * RATE * durationSeconds(DURATION))}`],
      graphstats_live_problems: NEVER,
      graphstats_live_rate_limited: NEVER,
    },
    // Whether an answer came from a cache is graph-stats' own (meta.diagnostics).
    { graphstats_live_uncached: NEVER },
  ),
});

/** Per VU: tokens minted with JWT_SECRET (no TOKENS file), by user index. @type {Record<number, string>} */
const minted = {};

/**
 * @param {number} i user index
 * @param {string} runId
 * @returns {string}
 */
function tokenOf(i, runId) {
  if (TOKENS) return TOKENS[i].token;
  if (!(i in minted)) minted[i] = tokenForVu(null, __ENV, i + 1, runId).token;
  return minted[i];
}

export function setup() {
  requireTokenSource(TOKENS, __ENV, 1);
  if (TOKENS) requireTokens(TOKENS.length, USERS, `live.js: USERS=${USERS} users in turn`);
  checkTarget(BASE, { profile: PROFILE });
  const runId = runIdFor("live");
  // The warm-up: the one request that computes; every later answer is a result-cache hit.
  const res = http.get(URL, {
    headers: { Authorization: `Bearer ${tokenOf(0, runId)}` },
    tags: { name: "setup warm-up" },
    timeout: "120s",
  });
  if (res.status !== 200) {
    throw new Error(`warm-up GET ${URL} answered ${res.status || res.error}: ${String(res.body).slice(0, 200)}`);
  }
  const run = { rate: RATE, users: USERS, seconds: durationSeconds(DURATION) };
  const need = requestsPerUser(run);
  const perMinute = parseRateLimits(res.headers).limit;
  if (perMinute === null || perMinute < need.perMinute) {
    const limits = limitsForRun(run);
    console.warn(
      `the server allows ${perMinute} requests/minute per user, but ${USERS} users at ${RATE}/s send up to ${need.perMinute} each: ` +
        `expect 429s (serve --rate-per-minute ${limits.ratePerMinute} --rate-per-day ${limits.ratePerDay}, or raise USERS)`,
    );
  }
  return { runId };
}

/** @param {{ runId: string }} ctx */
export function live(ctx) {
  const n = exec.scenario.iterationInTest;
  startLag.add(Date.now() - dueMs(exec.scenario.startTime, n, RATE));
  const body = n % CHECK_EVERY === 0;
  const res = http.get(URL, {
    headers: { Authorization: `Bearer ${tokenOf(userIndex(n, USERS), ctx.runId)}` },
    tags: { name: "GET /v1/graph-stats/chart" },
    responseType: body ? "text" : "none",
  });
  limited.add(res.status === 429 ? 1 : 0);
  if (!check(res, { "live is 200": (r) => r.status === 200 })) {
    record("live", [`wrong-status: ${res.status || res.error}`]);
    return;
  }
  // Without the body (CHECK_EVERY > 1), only the headers are judged.
  const answer = liveAnswer({ status: res.status, headers: res.headers, body: body ? res.body : null }, Date.now() / 1000, PROFILE);
  record("live", answer.problems);
  if (body && PROFILE === "full") uncached.add(answer.cached === false ? 1 : 0);
}

/** @param {any} data */
export function handleSummary(data) {
  const d = data.metrics["http_req_duration{scenario:live}"];
  const lag = data.metrics.graphstats_live_start_lag;
  const dropped = data.metrics.dropped_iterations ? data.metrics.dropped_iterations.values.count : 0;
  /** @param {any} m */
  const ms = (m) =>
    m ? { p50: m.values.med, p90: m.values["p(90)"], p95: m.values["p(95)"], p99: m.values["p(99)"], max: m.values.max } : null;
  return summaryOutputs(
    data,
    {
      script: "live",
      baseUrl: BASE,
      extra: {
        profile: PROFILE,
        rate_per_s: RATE,
        duration: DURATION,
        users: USERS,
        query: QUERY,
        check_every: CHECK_EVERY,
        live_ms: ms(d),
        // Iteration numbers skip nothing when k6 drops an iteration, so once one is dropped "due" drifts.
        start_lag_ms: dropped > 0 ? `not measured: ${dropped} iterations dropped` : ms(lag),
      },
    },
    __ENV,
  );
}
