// The k6-only glue: HTTP target check, token sources, HMAC signer, problem metrics. Everything with
// logic worth testing lives in the pure modules beside this one.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { SharedArray } from "k6/data";
import { Counter } from "k6/metrics";
import { checkEnvelope, parseBody } from "./envelope.js";
import { problemKind } from "./headers.js";
import { isAbsolutePath, isTokenList, parseTokenList, requireTokens } from "./tokens.js";
import { mintServiceToken } from "./jwt.js";
import { instanceMetric } from "./targets.js";

/** HMAC and base64url from k6's own modules, for lib/jwt.js. @type {import('./jwt.js').Signer} */
export const k6Signer = {
  b64url: (text) => encoding.b64encode(text, "rawurl"),
  hmac: (alg, secret, data) => crypto.hmac(alg, secret, data, "base64rawurl"),
};

/**
 * Fails `setup()` with a clear message unless `GET /health` answers 200. The interface shows no body for
 * it, so `core` asks nothing more; `full` also wants graph-stats' envelope with `status: "ok"`.
 * @param {string} baseUrl
 * @param {{ option?: string, profile?: import('./profile.js').Profile }} [opts] `option`: the option that
 *   named the URL, for the hint (BASE_URL unless given); `profile`: `full` unless `core` is given
 * @returns {{ version: string | null }}
 */
export function checkTarget(baseUrl, opts) {
  const o = opts || {};
  const res = http.get(`${baseUrl}/health`, { timeout: "10s", tags: { name: "setup /health" } });
  if (res.status !== 200) {
    throw new Error(
      `target ${baseUrl} is not ready: GET /health answered ${res.status || res.error || "nothing"}; ` +
        `start it (e.g. \`graph-stats serve\`) or pass -e ${o.option || "BASE_URL"}=...`,
    );
  }
  if (o.profile === "core") return { version: null };
  const problems = checkEnvelope(res.body, { success: true });
  const parsed = parseBody(res.body);
  const data = "value" in parsed && parsed.value ? parsed.value.data : null;
  if (problems.length > 0 || !data || data.status !== "ok") {
    throw new Error(
      `target ${baseUrl} does not look like graph-stats: /health ${problems.join("; ") || "status is not ok"} ` +
        "(PROFILE=full checks graph-stats' own forms; -e PROFILE=core checks only what the interface binds)",
    );
  }
  return { version: typeof data.version === "string" ? data.version : null };
}

/**
 * `checkTarget` for every URL of `BASE_URLS`; fails naming each instance that is not ready, so one
 * instance down is not mistaken for the whole deployment (or missed because the others answer).
 * @param {string[]} urls
 * @param {import('./profile.js').Profile} [profile]
 * @returns {{ version: string | null }} the first instance's version
 */
export function checkTargets(urls, profile) {
  /** @type {string[]} */
  const down = [];
  /** @type {(string | null)[]} */
  const versions = [];
  for (const url of urls) {
    try {
      versions.push(checkTarget(url, { option: urls.length > 1 ? "BASE_URLS" : "BASE_URL", profile }).version);
    } catch (err) {
      down.push(String(err instanceof Error ? err.message : err));
    }
  }
  if (down.length > 0) {
    throw new Error(urls.length === 1 ? down[0] : `${down.length} of ${urls.length} instances are not ready:\n  ${down.join("\n  ")}`);
  }
  const distinct = versions.filter((v, i) => versions.indexOf(v) === i);
  if (distinct.length > 1) console.warn(`the instances run different versions: ${urls.map((u, i) => `${u} ${versions[i]}`).join(", ")}`);
  return { version: versions[0] };
}

/**
 * Counters of each kind for each instance (see `instanceMetric`), created in the init context.
 * @param {number} instances
 * @param {string[]} kinds
 * @returns {{ add(index: number, kind: string, n?: number): void }}
 */
export function instanceCounters(instances, kinds) {
  /** @type {Record<string, Counter>} */
  const counters = {};
  for (let i = 0; i < instances; i += 1) {
    for (const kind of kinds) counters[instanceMetric(i, kind)] = new Counter(instanceMetric(i, kind));
  }
  return {
    add(index, kind, n) {
      counters[instanceMetric(index, kind)].add(n === undefined ? 1 : n);
    },
  };
}

/**
 * Loads `TOKENS` into a SharedArray: the tokens themselves (JWTs separated by commas), or the absolute
 * path of a file (the JSON of `token create --users N --json`, or one JWT per line). Must be called in
 * the init context. Returns null when TOKENS is not set.
 * @param {Record<string, string | undefined>} env
 * @returns {{ user: string, token: string }[] | null}
 */
export function loadTokens(env) {
  const value = env.TOKENS;
  if (!value) return null;
  if (isTokenList(value)) return new SharedArray("graph-stats tokens", () => parseTokenList(value, "TOKENS"));
  if (!isAbsolutePath(value))
    throw new Error(
      `TOKENS must be tokens separated by commas or an absolute path (k6 resolves relative paths against the script), got '${value.slice(0, 80)}'`,
    );
  return new SharedArray("graph-stats tokens", () => parseTokenList(open(value), value));
}

/**
 * Where tokens come from: TOKENS, or JWT_SECRET to mint one per user. Throws, saying so, when neither is
 * set or when TOKENS gives fewer users than the script needs.
 * @param {{ user: string, token: string }[] | null} tokens
 * @param {Record<string, string | undefined>} env
 * @param {number} users how many distinct users the script needs
 * @param {string} [why] what needs them, for the message
 * @returns {void}
 */
export function requireTokenSource(tokens, env, users, why) {
  if (tokens) requireTokens(tokens.length, users, why);
  else if (!env.JWT_SECRET)
    throw new Error(
      "no credentials: pass -e TOKENS=<tokens separated by commas, or the absolute path of a file of them> " +
        "(e.g. from `graph-stats token create --users N --json`), or -e JWT_SECRET=<the server secret> on a test deployment",
    );
}

/**
 * A run's id, in the names of the users it mints: the script, the time and a random part, so two runs
 * started in the same millisecond never share a user.
 * @param {string} script
 * @returns {string}
 */
export function runIdFor(script) {
  return `${script}${Date.now().toString(36)}${Math.floor(Math.random() * 1679616).toString(36)}`;
}

/**
 * The user and token of VU number `vu` (1-based): from the file, or minted with the secret for a
 * per-run user `load-<runId>-<vu>` so every run starts with fresh quotas.
 * @param {{ user: string, token: string }[] | null} tokens
 * @param {Record<string, string | undefined>} env
 * @param {number} vu
 * @param {string} runId
 * @returns {{ user: string, token: string }}
 */
export function tokenForVu(tokens, env, vu, runId) {
  if (tokens) return { user: tokens[vu - 1].user, token: tokens[vu - 1].token };
  const user = `load-${runId}-${vu}`;
  const nowSec = Math.floor(Date.now() / 1000);
  const token = mintServiceToken(String(env.JWT_SECRET), { sub: user, nowSec, ttlSec: 86400, jti: `${user}-${nowSec}` }, k6Signer);
  return { user, token };
}

/**
 * A counter of problems tagged by kind, plus a budget of console warnings per VU so the first
 * deviations are visible without logging every iteration.
 * @param {string} name
 * @param {number} [warnings]
 */
export function problemRecorder(name, warnings) {
  const counter = new Counter(name);
  let left = warnings === undefined ? 3 : warnings;
  /**
   * @param {string} where
   * @param {string[]} problems
   * @returns {boolean} true when there were none
   */
  return function record(where, problems) {
    if (problems.length === 0) {
      counter.add(0);
      return true;
    }
    for (const p of problems) counter.add(1, { problem: problemKind(p) });
    if (left > 0) {
      left -= 1;
      console.warn(`${where}: ${problems.join("; ")}`);
    }
    return false;
  };
}
