// Constant-arrival-rate load on the public endpoints: /v1/demo/chart and /health, each answering 200
// without a token and unmetered (every other demo request carries a garbage Authorization, which it
// must ignore). PROFILE=full adds graph-stats' envelope and headers, and a demo answer that never changes.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e RATE=50 -e DURATION=1m load/demo.js
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { Counter } from "k6/metrics";
import { baseUrlFrom, durationFrom, durationSeconds, intFrom, numberFrom } from "./lib/env.js";
import { checkEnvelope, parseBody } from "./lib/envelope.js";
import { checkCommonHeaders, checkUnmetered } from "./lib/headers.js";
import { NEVER, latency, withDefaults } from "./lib/options.js";
import { profileFrom, thresholdsFor } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { checkTarget, problemRecorder } from "./lib/k6-support.js";

const BASE = baseUrlFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const RATE = intFrom(__ENV, "RATE", 50);
const HEALTH_RATE = intFrom(__ENV, "HEALTH_RATE", Math.max(1, Math.round(RATE / 5)));
const DURATION = durationFrom(__ENV, "DURATION", "1m");
const VUS = intFrom(__ENV, "VUS", 20);
const MAX_VUS = intFrom(__ENV, "MAX_VUS", 200);
const ERROR_RATE = numberFrom(__ENV, "ERROR_RATE", 0.01);
const record = problemRecorder("graphstats_demo_problems");
const dataChanged = new Counter("graphstats_demo_data_changed");

/**
 * @param {number} rate
 * @returns {import('k6/options').ConstantArrivalRateScenario}
 */
function arrival(rate) {
  // Requests time out after 10 s, so the run ends at most that long after DURATION.
  return {
    executor: "constant-arrival-rate",
    rate,
    timeUnit: "1s",
    duration: DURATION,
    preAllocatedVUs: VUS,
    maxVUs: MAX_VUS,
    gracefulStop: "10s",
  };
}

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: { demo: Object.assign(arrival(RATE), { exec: "demo" }), health: Object.assign(arrival(HEALTH_RATE), { exec: "health" }) },
  thresholds: thresholdsFor(
    PROFILE,
    {
      "http_req_duration{scenario:demo}": latency(numberFrom(__ENV, "P95_MS", 200), numberFrom(__ENV, "P99_MS", 500)),
      "http_req_duration{scenario:health}": latency(numberFrom(__ENV, "HEALTH_P95_MS", 50), numberFrom(__ENV, "HEALTH_P99_MS", 200)),
      http_req_failed: [`rate<${ERROR_RATE}`],
      checks: [`rate>${1 - ERROR_RATE}`],
      dropped_iterations: [`count<=${Math.ceil(ERROR_RATE * durationSeconds(DURATION) * (RATE + HEALTH_RATE))}`],
      graphstats_demo_problems: NEVER,
    },
    // The interface shows no demo body; graph-stats' is a fixed answer (docs/api.md § GET /v1/demo/chart).
    { graphstats_demo_data_changed: NEVER },
  ),
});

/** Per VU: the first demo `data` seen, which must never change (docs/api.md § GET /v1/demo/chart). @type {string | null} */
let firstData = null;

export function setup() {
  return checkTarget(BASE, { profile: PROFILE });
}

export function demo() {
  // Any Authorization header is ignored (docs/api.md § GET /v1/demo/chart): every other request sends one.
  /** @type {Record<string, string>} */
  const headers = exec.scenario.iterationInTest % 2 === 1 ? { Authorization: "Bearer not-a-token" } : {};
  const res = http.get(`${BASE}/v1/demo/chart`, { headers, timeout: "10s", tags: { name: "GET /v1/demo/chart" } });
  if (!check(res, { "demo is 200": (r) => r.status === 200 })) return;
  const unmetered = checkUnmetered(res.headers, "/v1/demo/chart");
  if (PROFILE === "core") {
    record("demo", unmetered);
    return;
  }
  record("demo", unmetered.concat(checkEnvelope(res.body, { success: true, stocks: true }), checkCommonHeaders(res.headers)));
  const parsed = parseBody(res.body);
  const data = "value" in parsed && parsed.value ? JSON.stringify(parsed.value.data) : "";
  if (firstData === null) firstData = data;
  dataChanged.add(data === firstData ? 0 : 1);
}

export function health() {
  const res = http.get(`${BASE}/health`, { timeout: "10s", tags: { name: "GET /health" } });
  if (!check(res, { "health is 200": (r) => r.status === 200 })) return;
  const unmetered = checkUnmetered(res.headers, "/health");
  record(
    "health",
    PROFILE === "core" ? unmetered : unmetered.concat(checkEnvelope(res.body, { success: true }), checkCommonHeaders(res.headers)),
  );
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(
    data,
    { script: "demo", baseUrl: BASE, extra: { profile: PROFILE, rate_per_s: RATE, health_rate_per_s: HEALTH_RATE, duration: DURATION } },
    __ENV,
  );
}
