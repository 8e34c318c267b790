// Mixed realistic traffic for a long time: the public demo and health endpoints at a steady rate, plus
// live users that call the metered endpoint at the pace their limits allow and honour Retry-After.
// With several instances (BASE_URLS) each VU sends its requests round-robin over all of them.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json -e DURATION=30m load/soak.js
// k6 run -e BASE_URLS=http://127.0.0.1:8081,http://127.0.0.1:8082 -e TOKENS=/abs/tokens.json load/soak.js
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";
import { Trend } from "k6/metrics";
import { durationFrom, durationSeconds, flagFrom, intFrom, numberFrom } from "./lib/env.js";
import { checkEnvelope, errorCode } from "./lib/envelope.js";
import { liveEnvelopeProblems } from "./lib/answers.js";
import { checkCommonHeaders, checkRateLimitHeaders, checkUnmetered, parseRateLimits } from "./lib/headers.js";
import { createGrowthTracker } from "./lib/growth.js";
import { NEVER, latency, withDefaults } from "./lib/options.js";
import { profileFrom } from "./lib/profile.js";
import { p95Growth, summaryOutputs } from "./lib/summary.js";
import { baseUrlsFrom, createRotation, instanceCounts } from "./lib/targets.js";
import { checkTargets, instanceCounters, loadTokens, problemRecorder, requireTokenSource, runIdFor, tokenForVu } from "./lib/k6-support.js";

const URLS = baseUrlsFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const DURATION = durationFrom(__ENV, "DURATION", "15m");
const DURATION_MS = durationSeconds(DURATION) * 1000;
const DEMO_RATE = intFrom(__ENV, "DEMO_RATE", 20);
const HEALTH_RATE = intFrom(__ENV, "HEALTH_RATE", 2);
const LIVE_USERS = intFrom(__ENV, "LIVE_USERS", 10);
const GROWTH_MAX = numberFrom(__ENV, "GROWTH_MAX", 2);
const ERROR_RATE = numberFrom(__ENV, "ERROR_RATE", 0.01);
const TOKENS = loadTokens(__ENV);
// Daily data exists in every universe worth load-testing; intraday only in the sample and in 1m imports.
// Core: QUERY alone (the parameters graph-stats takes are its own); full: graph-stats' mix.
const QUERIES =
  PROFILE === "core"
    ? [__ENV.QUERY || "interval=1d"]
    : [
        "interval=1d&lookback=60",
        "interval=1d&lookback=120&periods=5&include_graph=false",
        "interval=1d&lookback=60&metrics=pagerank,degree_strength&graph_method=knn&sort=pagerank",
        "interval=1w&lookback=26&corr_method=spearman",
      ].concat(flagFrom(__ENV, "INTRADAY") ? ["interval=5m&lookback=60", "interval=1h&lookback=30&periods=3"] : []);

const early = new Trend("graphstats_latency_early", true);
const late = new Trend("graphstats_latency_late", true);
const growth = new Trend("graphstats_latency_growth");
const record = problemRecorder("graphstats_soak_problems");
const INSTANCE_KINDS = ["requests", "errors"];
const perInstance = instanceCounters(URLS.length, INSTANCE_KINDS);

/**
 * @param {number} rate
 * @returns {import('k6/options').ConstantArrivalRateScenario}
 */
function arrival(rate) {
  return { executor: "constant-arrival-rate", rate, timeUnit: "1s", duration: DURATION, preAllocatedVUs: 10, maxVUs: 100 };
}

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: {
    demo: Object.assign(arrival(DEMO_RATE), { exec: "demo" }),
    health: Object.assign(arrival(HEALTH_RATE), { exec: "health" }),
    live: { executor: "constant-vus", vus: LIVE_USERS, duration: DURATION, exec: "live", gracefulStop: "90s" },
  },
  thresholds: {
    "http_req_duration{scenario:demo}": latency(numberFrom(__ENV, "P95_MS", 200), numberFrom(__ENV, "P99_MS", 500)),
    "http_req_duration{scenario:live}": latency(numberFrom(__ENV, "LIVE_P95_MS", 2000), numberFrom(__ENV, "LIVE_P99_MS", 5000)),
    http_req_failed: [`rate<${ERROR_RATE}`],
    checks: [`rate>${1 - ERROR_RATE}`],
    graphstats_soak_problems: NEVER,
    graphstats_latency_growth: [`max<${GROWTH_MAX}`],
  },
});

http.setResponseCallback(http.expectedStatuses(200, 429));

const tracker = createGrowthTracker({ bucketMs: 60000, warmupMs: 60000, floorMs: numberFrom(__ENV, "GROWTH_FLOOR_MS", 10) });
/** @type {{ user: string, token: string } | null} */
let me = null;
/** @type {{ next(): number } | null} */
let rotation = null;

/**
 * GET `path` on the next instance of this VU's rotation, counted per instance (errors: 5xx or no answer).
 * @param {string} path
 * @param {import('k6/http').RefinedParams<any>} params
 */
function get(path, params) {
  if (rotation === null) rotation = createRotation(URLS.length, exec.vu.idInTest);
  const i = rotation.next();
  const res = http.get(`${URLS[i]}${path}`, Object.assign({ timeout: "30s" }, params));
  perInstance.add(i, "requests");
  perInstance.add(i, "errors", res.status === 0 || res.status >= 500 ? 1 : 0);
  return res;
}

export function setup() {
  // Soak VUs of all scenarios draw tokens by VU id; a user shared by two VUs only means more 429s.
  requireTokenSource(TOKENS, __ENV, 1);
  checkTargets(URLS, PROFILE);
  return { runId: runIdFor("soak") };
}

/**
 * Feeds the latency trends: early = first fifth of the run, late = last fifth.
 * @param {import('k6/http').RefinedResponse<any>} res
 */
function observe(res) {
  const elapsed = Date.now() - exec.scenario.startTime;
  const d = res.timings.duration;
  const tags = { scenario: exec.scenario.name };
  if (elapsed < DURATION_MS / 5) early.add(d, tags);
  else if (elapsed > (DURATION_MS * 4) / 5) late.add(d, tags);
  const ratio = tracker.add(elapsed, d);
  if (ratio !== null) growth.add(ratio, tags);
}

export function demo() {
  const res = get("/v1/demo/chart", { tags: { name: "GET /v1/demo/chart" } });
  observe(res);
  if (!check(res, { "demo is 200": (r) => r.status === 200 })) return;
  const unmetered = checkUnmetered(res.headers, "/v1/demo/chart");
  record("demo", PROFILE === "core" ? unmetered : unmetered.concat(checkEnvelope(res.body, { success: true, stocks: true })));
}

export function health() {
  const res = get("/health", { tags: { name: "GET /health" } });
  observe(res);
  if (!check(res, { "health is 200": (r) => r.status === 200 })) return;
  const unmetered = checkUnmetered(res.headers, "/health");
  record("health", PROFILE === "core" ? unmetered : unmetered.concat(checkEnvelope(res.body, { success: true })));
}

/** @param {{ runId: string }} ctx */
export function live(ctx) {
  if (me === null) {
    const vu = exec.vu.idInTest;
    me = TOKENS ? TOKENS[(vu - 1) % TOKENS.length] : tokenForVu(null, __ENV, vu, ctx.runId);
    sleep(Math.random() * 5);
  }
  const query = QUERIES[Math.floor(Math.random() * QUERIES.length)];
  const res = get(`/v1/graph-stats/chart?${query}`, {
    headers: { Authorization: `Bearer ${me.token}` },
    tags: { name: "GET /v1/graph-stats/chart" },
  });
  observe(res);
  const ok = check(res, { "live is 200 or 429": (r) => r.status === 200 || r.status === 429 });
  const lim = parseRateLimits(res.headers);
  if (ok) {
    const code = res.status === 200 ? null : errorCode(res.body);
    record(
      "live",
      liveEnvelopeProblems(res, PROFILE).concat(
        checkCommonHeaders(res.headers, PROFILE),
        checkRateLimitHeaders(res.headers, res.status, code, Date.now() / 1000, { profile: PROFILE }),
      ),
    );
  }
  // A well-behaved client: wait what Retry-After says, else spread its per-minute allowance evenly.
  const wait = res.status === 429 && lim.retryAfter !== null ? lim.retryAfter : 60 / Math.max(1, lim.limit || 1);
  sleep(Math.min(wait, 3600) + Math.random());
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(
    data,
    {
      script: "soak",
      baseUrl: URLS.join(","),
      instances: instanceCounts(data, URLS, INSTANCE_KINDS),
      extra: {
        profile: PROFILE,
        duration: DURATION,
        demo_rate_per_s: DEMO_RATE,
        live_users: LIVE_USERS,
        p95_growth_late_over_early: p95Growth(data, "graphstats_latency_early", "graphstats_latency_late"),
      },
    },
    __ENV,
  );
}
