// Limiter exactness under load: many users, each with its own token, each sending bursts of concurrent
// requests. Every VU is one user and sees all of that user's requests, so it can tell when the server
// admitted more than the limits it announces in its own headers. With several instances sharing one
// store (BASE_URLS), every burst is spread over all of them, so the verdicts judge the shared limiter.
// PROFILE=core (the default) assumes only what the interface binds: minute windows of 60 s ending at the
// X-RateLimit-Reset they announce, any day window; PROFILE=full holds graph-stats to its sliding minute,
// UTC day and own headers.
// k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=/abs/tokens.json -e VUS=20 load/limits.js
// k6 run -e BASE_URLS=http://127.0.0.1:8081,http://127.0.0.1:8082 -e TOKENS=/abs/tokens.json load/limits.js
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";
import { Counter, Trend } from "k6/metrics";
import { givenLimits, intFrom } from "./lib/env.js";
import { errorCode } from "./lib/envelope.js";
import { liveEnvelopeProblems, queryHint } from "./lib/answers.js";
import { checkCommonHeaders, checkRateLimitHeaders, parseRateLimits } from "./lib/headers.js";
import { createLedger } from "./lib/admission.js";
import { NEVER, NEVER_ABORT, withDefaults } from "./lib/options.js";
import { profileFrom } from "./lib/profile.js";
import { summaryOutputs } from "./lib/summary.js";
import { MAX_AUTO_BURST, baseUrlsFrom, burstInstances, burstSize, instanceCounts, requireBurstCoversInstances } from "./lib/targets.js";
import { checkTargets, instanceCounters, loadTokens, problemRecorder, requireTokenSource, runIdFor, tokenForVu } from "./lib/k6-support.js";

const URLS = baseUrlsFrom(__ENV);
const PROFILE = profileFrom(__ENV);
const VUS = intFrom(__ENV, "VUS", 20);
// BURST when given; else sized from the limit the target announces (lib/targets.js `burstSize`).
const GIVEN_BURST = __ENV.BURST ? intFrom(__ENV, "BURST", 4) : null;
if (GIVEN_BURST !== null) requireBurstCoversInstances(GIVEN_BURST, URLS.length);
const MAX_BURST = GIVEN_BURST !== null ? GIVEN_BURST : Math.max(MAX_AUTO_BURST, URLS.length);
// Four bursts 25 s apart: inside the first burst's minute (25, 50 s) and outside it (75 s), in about 80 s.
const BURSTS = intFrom(__ENV, "BURSTS", 4);
// 25 s apart, consecutive bursts land both inside and outside the previous burst's sliding minute.
const PACE_S = intFrom(__ENV, "PACE_S", 25);
// Core: the one parameter the interface shows a value form of; full: a small graph-stats answer.
const QUERY = __ENV.QUERY || (PROFILE === "full" ? "interval=1d&lookback=60&include_graph=false" : "interval=1d");
const GIVEN = givenLimits(__ENV);
const TIMEOUT_S = intFrom(__ENV, "TIMEOUT_S", 10);
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
    // The last burst is due (BURSTS - 1) * PACE_S after the first; each request gives up after TIMEOUT_S.
    limits: {
      executor: "per-vu-iterations",
      vus: VUS,
      iterations: BURSTS,
      exec: "limits",
      maxDuration: `${(BURSTS - 1) * PACE_S + 2 * TIMEOUT_S + 5}s`,
      gracefulStop: `${TIMEOUT_S}s`,
    },
  },
  // A whole burst in flight at once, however it is split over hosts.
  batch: Math.max(20, MAX_BURST),
  batchPerHost: MAX_BURST,
  thresholds: {
    // A target that admits more than it announces (or never refuses) fails within seconds.
    graphstats_over_admitted: NEVER_ABORT,
    graphstats_daily_over_admitted: NEVER_ABORT,
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

const ledger = createLedger({
  marginMs: intFrom(__ENV, "MARGIN_MS", 1000, 0),
  windows: PROFILE === "full" ? "sliding" : "announced",
});
/** @type {{ user: string, token: string } | null} */
let me = null;
let firstBurstAt = 0;
/** The limits this VU last judged by. @type {{ perMinute: number | null, perDay: number | null }} */
let seen = { perMinute: null, perDay: null };
/** The one warning about a query the target refuses. @type {string | null} */
let hinted = null;
/** Verdict warnings this VU may still print. */
let warningsLeft = 3;

export function setup() {
  requireTokenSource(TOKENS, __ENV, VUS, `limits.js: one user per VU (VUS=${VUS})`);
  const target = checkTargets(URLS, PROFILE);
  return { runId: runIdFor("limits"), version: target.version };
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

  const params = {
    headers: { Authorization: `Bearer ${me.token}` },
    timeout: `${TIMEOUT_S}s`,
    tags: { name: "GET /v1/graph-stats/chart" },
  };
  // Consecutive instances per request, shifted by VU and burst so the remainder does not always fall on the first.
  const size = burstSize(GIVEN_BURST, URLS.length, GIVEN.perMinute !== null ? GIVEN.perMinute : seen.perMinute);
  const targets = burstInstances(URLS.length, size, vu + exec.vu.iterationInScenario);
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
    if (!ok) {
      const hint = queryHint(res, QUERY);
      if (hint && !hinted) console.warn((hinted = hint));
      continue;
    }
    const code = res.status === 200 ? null : errorCode(res.body);
    recordHeaders(
      `user ${me.user}`,
      checkCommonHeaders(res.headers, PROFILE).concat(
        checkRateLimitHeaders(res.headers, res.status, code, endMs / 1000, { profile: PROFILE, given: GIVEN }),
      ),
    );
    recordEnvelope(`user ${me.user}`, liveEnvelopeProblems(res, PROFILE));
    const lim = parseRateLimits(res.headers);
    if (lim.limit !== null) perMinute = lim.limit;
    if (lim.dailyLimit !== null) perDay = lim.dailyLimit;
    (res.status === 200 ? admitted : rejected).add(1);
    perInstance.add(targets[r], res.status === 200 ? "admitted" : "rejected");
    observations.push({
      startMs,
      endMs,
      status: res.status,
      code,
      remaining: lim.remaining,
      dailyRemaining: lim.dailyRemaining,
      reset: lim.reset,
    });
  }
  // The limits given win; else those the target announces. A burst that announced none is judged on
  // the last ones seen.
  perMinute = GIVEN.perMinute !== null ? GIVEN.perMinute : perMinute !== null ? perMinute : seen.perMinute;
  perDay = GIVEN.perDay !== null ? GIVEN.perDay : perDay !== null ? perDay : seen.perDay;
  if (observations.length === 0 || perMinute === null || perDay === null) return;
  seen = { perMinute, perDay };

  const verdict = ledger.recordBurst(observations, { perMinute, perDay });
  windowAdmissions.add(verdict.windowAdmissions);
  overAdmitted.add(verdict.overAdmitted);
  underAdmitted.add(verdict.underAdmitted);
  dailyOverAdmitted.add(verdict.dailyOverAdmitted);
  staleRemaining.add(verdict.staleRemaining);
  if (verdict.overAdmitted + verdict.underAdmitted + verdict.dailyOverAdmitted > 0 && warningsLeft > 0) {
    warningsLeft -= 1;
    console.warn(
      `user ${me.user}: burst ${exec.vu.iterationInScenario} admitted ${verdict.admitted} of ${size} ` +
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
      extra: {
        profile: PROFILE,
        users: VUS,
        burst: GIVEN_BURST !== null ? GIVEN_BURST : "limit + 1",
        bursts_per_user: BURSTS,
        pace_s: PACE_S,
        query: QUERY,
      },
    },
    __ENV,
  );
}
