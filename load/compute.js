// Heavy, uncached computations on the live endpoint while /health is polled at a steady rate.
// graph-stats computes in compute threads (serve --compute-threads), so /health must stay fast
// while they run, and no computation may fail.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json -e DURATION=1m load/compute.js
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";
import { baseUrlFrom, durationFrom, intFrom, numberFrom } from "./lib/env.js";
import { checkEnvelope, errorCode, parseBody } from "./lib/envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders, checkUnmetered } from "./lib/headers.js";
import { DEFAULT_FIRST_ASOF, DEFAULT_HEAVY_QUERY, DEFAULT_LAST_ASOF, dateOption, heavyQuery } from "./lib/heavy.js";
import { NEVER, latency, withDefaults } from "./lib/options.js";
import { profileFrom } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, loadTokens, problemRecorder, requireTokenSource, runIdFor, tokenForVu } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const DURATION = durationFrom(__ENV, "DURATION", "1m");
const HEAVY_VUS = intFrom(__ENV, "HEAVY_VUS", 4);
const HEALTH_RATE = intFrom(__ENV, "HEALTH_RATE", 20);
const ERROR_RATE = numberFrom(__ENV, "ERROR_RATE", 0.01);
const TOKENS = loadTokens(__ENV);
const HEAVY = {
  baseQuery: __ENV.HEAVY_QUERY || DEFAULT_HEAVY_QUERY,
  firstMs: dateOption("FIRST_ASOF", __ENV.FIRST_ASOF || DEFAULT_FIRST_ASOF),
  lastMs: dateOption("LAST_ASOF", __ENV.LAST_ASOF || DEFAULT_LAST_ASOF),
};
const record = problemRecorder("graphstats_compute_problems");
const computed = new Counter("graphstats_heavy_computed");
const limited = new Counter("graphstats_heavy_limited");
const computeMs = new Trend("graphstats_heavy_compute_ms", true);

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: {
    heavy: { executor: "constant-vus", vus: HEAVY_VUS, duration: DURATION, exec: "heavy", gracefulStop: "60s" },
    health: {
      executor: "constant-arrival-rate",
      rate: HEALTH_RATE,
      timeUnit: "1s",
      duration: DURATION,
      preAllocatedVUs: 5,
      maxVUs: 50,
      exec: "health",
    },
  },
  thresholds: {
    "http_req_duration{scenario:health}": latency(numberFrom(__ENV, "HEALTH_P95_MS", 50), numberFrom(__ENV, "HEALTH_P99_MS", 150)),
    http_req_failed: [`rate<${ERROR_RATE}`],
    checks: [`rate>${1 - ERROR_RATE}`],
    graphstats_compute_problems: NEVER,
    // A run in which nothing was computed proves nothing (every request limited or cached).
    graphstats_heavy_computed: ["count>0"],
  },
});

// 429 is expected: a user out of its minute moves the VU on to its next user.
http.setResponseCallback(http.expectedStatuses(200, 429));

export function setup() {
  requireTokenSource(TOKENS, __ENV, 1);
  checkTarget(BASE, { profile: PROFILE });
  return { runId: runIdFor("compute") };
}

/** @param {{ runId: string }} ctx */
export function heavy(ctx) {
  // The scenario's iteration number, unique across its VUs: a distinct query each time, users in turn.
  const n = exec.scenario.iterationInTest;
  const me = TOKENS ? TOKENS[n % TOKENS.length] : tokenForVu(null, __ENV, n + 1, ctx.runId);
  const res = http.get(`${BASE}/v1/graph-stats/chart?${heavyQuery(n, HEAVY)}`, {
    headers: { Authorization: `Bearer ${me.token}` },
    tags: { name: "GET /v1/graph-stats/chart (heavy)" },
    timeout: "120s",
  });
  if (!check(res, { "heavy is 200 or 429": (r) => r.status === 200 || r.status === 429 })) {
    record("heavy", [`status ${res.status}: ${errorCode(res.body) || res.error || "no code"}`]);
    return;
  }
  const code = res.status === 200 ? null : errorCode(res.body);
  record(
    "heavy",
    checkEnvelope(res.body, res.status === 200 ? { success: true, stocks: true } : { success: false }, PROFILE).concat(
      checkCommonHeaders(res.headers, PROFILE),
      checkRateLimitHeaders(res.headers, res.status, code, Date.now() / 1000, { profile: PROFILE }),
    ),
  );
  if (res.status === 429) {
    limited.add(1);
    return;
  }
  const parsed = parseBody(res.body);
  const meta = "value" in parsed && parsed.value && parsed.value.meta;
  const diagnostics = meta && meta.diagnostics ? meta.diagnostics : null;
  // graph-stats says whether it computed (meta.diagnostics); core counts every 200 not marked cached.
  if (diagnostics ? diagnostics.cached === false : PROFILE === "core") computed.add(1);
  if (diagnostics && diagnostics.cached === false) computeMs.add(Number(diagnostics.compute_ms));
}

export function health() {
  const res = http.get(`${BASE}/health`, { timeout: "10s", tags: { name: "GET /health" } });
  if (!check(res, { "health is 200": (r) => r.status === 200 })) return;
  const unmetered = checkUnmetered(res.headers, "/health");
  record("health", PROFILE === "core" ? unmetered : unmetered.concat(checkEnvelope(res.body, { success: true })));
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(
    data,
    {
      script: "compute",
      baseUrl: BASE,
      extra: { profile: PROFILE, duration: DURATION, heavy_vus: HEAVY_VUS, health_rate_per_s: HEALTH_RATE },
    },
    __ENV,
  );
}
