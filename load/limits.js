// Limiter exactness under load: many users, each with its own token, each sending bursts of concurrent
// requests. Every VU is one user and sees all of that user's requests, so it can tell when the server
// admitted more than the limits it announces in its own headers. With several instances sharing one
// store (BASE_URLS), every burst is spread over all of them, so the verdicts judge the shared limiter.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json -e VUS=20 load/limits.js
// k6 run -e BASE_URLS=http://127.0.0.1:8081,http://127.0.0.1:8082 -e TOKENS=/abs/tokens.json load/limits.js
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";
import { intFrom } from "./lib/env.js";
import { checkEnvelope, errorCode } from "./lib/envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders, headerValue, parseRateLimits } from "./lib/headers.js";
import { createLedger } from "./lib/admission.js";
import { NEVER, withDefaults } from "./lib/options.js";
import { summaryOutputs } from "./lib/summary.js";
import { baseUrlsFrom, burstInstances, instanceCounts, requireBurstCoversInstances } from "./lib/targets.js";
import { checkTargets, instanceCounters, loadTokens, problemRecorder, requireTokenSource, tokenForVu } from "./lib/k6-support.js";

const URLS = baseUrlsFrom(__ENV);
const VUS = intFrom(__ENV, "VUS", 20);
const BURST = intFrom(__ENV, "BURST", Math.max(4, URLS.length));
requireBurstCoversInstances(BURST, URLS.length);
const BURSTS = intFrom(__ENV, "BURSTS", 8);
// 25 s apart, consecutive bursts land both inside and outside the previous burst's sliding minute.
const PACE_S = intFrom(__ENV, "PACE_S", 25);
const QUERY = __ENV.QUERY || "interval=1d&lookback=60&include_graph=false";
const TOKENS = loadTokens(__ENV);

const admitted = new Counter("graphstats_admitted");
const rejected = new Counter("graphstats_rejected");
const windowAdmissions = new Trend("graphstats_window_admissions");
const overAdmitted = new Counter("graphstats_over_admitted");
const underAdmitted = new Counter("graphstats_under_admitted");
const dailyOverAdmitted = new Counter("graphstats_daily_over_admitted");
const staleRemaining = new Counter("graphstats_stale_remaining");
const wrongStatus = new Counter("graphstats_wrong_status");
const recordHeaders = problemRecorder("graphstats_header_problems");
const recordEnvelope = problemRecorder("graphstats_envelope_problems");
const INSTANCE_KINDS = ["requests", "admitted", "rejected"];
const perInstance = instanceCounters(URLS.length, INSTANCE_KINDS);

/** @type {import('k6/options').Options} */
export const options = withDefaults({
  scenarios: {
    limits: { executor: "per-vu-iterations", vus: VUS, iterations: BURSTS, exec: "limits", maxDuration: `${BURSTS * PACE_S + 120}s` },
  },
  // A whole burst in flight at once, however it is split over hosts.
  batch: Math.max(20, BURST),
  batchPerHost: BURST,
  thresholds: {
    graphstats_over_admitted: NEVER,
    graphstats_daily_over_admitted: NEVER,
    graphstats_under_admitted: NEVER,
    graphstats_stale_remaining: NEVER,
    graphstats_wrong_status: NEVER,
    graphstats_header_problems: NEVER,
    graphstats_envelope_problems: NEVER,
    http_req_failed: ["rate==0"],
  },
});

// 429 is the limiter doing its job here, not a failed request.
http.setResponseCallback(http.expectedStatuses(200, 429));

const ledger = createLedger({ marginMs: intFrom(__ENV, "MARGIN_MS", 1000, 0) });
/** @type {{ user: string, token: string } | null} */
let me = null;
let firstBurstAt = 0;

export function setup() {
  requireTokenSource(TOKENS, __ENV, VUS);
  const target = checkTargets(URLS);
  return { runId: `limits${Date.now()}`, version: target.version };
}

/**
 * @param {import('k6/http').RefinedResponse<any>} res
 * @returns {string[]}
 */
function envelopeProblems(res) {
  if (res.status === 200) return checkEnvelope(res.body, { success: true, stocks: true });
  const code = errorCode(res.body);
  if (code !== "RATE_LIMITED") return checkEnvelope(res.body, { success: false, code: "DAILY_QUOTA_EXCEEDED" });
  const lim = parseRateLimits(res.headers);
  const noun = lim.limit === 1 ? "request" : "requests";
  return checkEnvelope(res.body, {
    success: false,
    code: "RATE_LIMITED",
    message: `rate limit exceeded: ${lim.limit} ${noun}/minute. Retry in ${headerValue(res.headers, "Retry-After")}s.`,
  });
}

/** @param {{ runId: string }} ctx */
export function limits(ctx) {
  const vu = exec.vu.idInTest;
  if (me === null) {
    me = tokenForVu(TOKENS, __ENV, vu, ctx.runId);
    firstBurstAt = Date.now() + (vu % 10) * 50;
  }
  const due = firstBurstAt + exec.vu.iterationInScenario * PACE_S * 1000;
  if (due > Date.now()) sleep((due - Date.now()) / 1000);

  const params = { headers: { Authorization: `Bearer ${me.token}` }, tags: { name: "GET /v1/graph-stats/chart" } };
  // Consecutive instances per request, shifted by VU and burst so the remainder does not always fall on the first.
  const targets = burstInstances(URLS.length, BURST, vu + exec.vu.iterationInScenario);
  const batch = targets.map((i) => ({ method: "GET", url: `${URLS[i]}/v1/graph-stats/chart?${QUERY}`, params }));
  const startMs = Date.now();
  const responses = http.batch(batch);
  const endMs = Date.now();

  /** @type {import('./lib/admission.js').Observation[]} */
  const observations = [];
  let perMinute = null;
  let perDay = null;
  for (let r = 0; r < responses.length; r += 1) {
    const res = responses[r];
    perInstance.add(targets[r], "requests");
    const ok = res.status === 200 || res.status === 429;
    wrongStatus.add(ok ? 0 : 1, { status: String(res.status) });
    check(res, { "status is 200 or 429": () => ok });
    if (!ok) continue;
    const code = res.status === 200 ? null : errorCode(res.body);
    recordHeaders(
      `user ${me.user}`,
      checkCommonHeaders(res.headers).concat(checkRateLimitHeaders(res.headers, res.status, code, endMs / 1000)),
    );
    recordEnvelope(`user ${me.user}`, envelopeProblems(res));
    const lim = parseRateLimits(res.headers);
    if (lim.limit !== null) perMinute = lim.limit;
    if (lim.dailyLimit !== null) perDay = lim.dailyLimit;
    (res.status === 200 ? admitted : rejected).add(1);
    perInstance.add(targets[r], res.status === 200 ? "admitted" : "rejected");
    observations.push({ startMs, endMs, status: res.status, code, remaining: lim.remaining, dailyRemaining: lim.dailyRemaining });
  }
  if (observations.length === 0 || perMinute === null || perDay === null) return;

  const verdict = ledger.recordBurst(observations, { perMinute, perDay });
  windowAdmissions.add(verdict.windowAdmissions);
  overAdmitted.add(verdict.overAdmitted);
  underAdmitted.add(verdict.underAdmitted);
  dailyOverAdmitted.add(verdict.dailyOverAdmitted);
  staleRemaining.add(verdict.staleRemaining);
  if (verdict.overAdmitted + verdict.underAdmitted + verdict.dailyOverAdmitted > 0) {
    console.warn(
      `user ${me.user}: burst ${exec.vu.iterationInScenario} admitted ${verdict.admitted} of ${BURST} ` +
        `(limit ${perMinute}/min, ${perDay}/day): over ${verdict.overAdmitted}, under ${verdict.underAdmitted}, daily over ${verdict.dailyOverAdmitted}`,
    );
  }
}

/** @param {any} data */
export function handleSummary(data) {
  return summaryOutputs(
    data,
    {
      script: "limits",
      baseUrl: URLS.join(","),
      instances: instanceCounts(data, URLS, INSTANCE_KINDS),
      extra: { users: VUS, burst: BURST, bursts_per_user: BURSTS, pace_s: PACE_S, query: QUERY },
    },
    __ENV,
  );
}
