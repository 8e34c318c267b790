// The k6-only glue: HTTP target check, token sources, HMAC signer, problem metrics. Everything with
// logic worth testing lives in the pure modules beside this one.
import http from "k6/http";
import crypto from "k6/crypto";
import encoding from "k6/encoding";
import { SharedArray } from "k6/data";
import { Counter } from "k6/metrics";
import { checkEnvelope, parseBody } from "./envelope.js";
import { problemKind } from "./headers.js";
import { isAbsolutePath, parseTokenList, requireTokens } from "./tokens.js";
import { mintServiceToken } from "./jwt.js";
import { instanceMetric } from "./targets.js";

/** HMAC and base64url from k6's own modules, for lib/jwt.js. @type {import('./jwt.js').Signer} */
export const k6Signer = {
  b64url: (text) => encoding.b64encode(text, "rawurl"),
  hmac: (alg, secret, data) => crypto.hmac(alg, secret, data, "base64rawurl"),
};

/**
 * Fails `setup()` with a clear message unless `GET /health` answers 200 with `status: "ok"`.
 * @param {string} baseUrl
 * @param {string} [option] the option that named it, for the hint (BASE_URL unless given)
 * @returns {{ version: string | null }}
 */
export function checkTarget(baseUrl, option) {
  const res = http.get(`${baseUrl}/health`, { timeout: "10s", tags: { name: "setup /health" } });
  if (res.status !== 200) {
    throw new Error(
      `target ${baseUrl} is not ready: GET /health answered ${res.status || res.error || "nothing"}; ` +
        `start it with \`graph-stats serve\` or pass -e ${option || "BASE_URL"}=...`,
    );
  }
  const problems = checkEnvelope(res.body, { success: true });
  const parsed = parseBody(res.body);
  const data = "value" in parsed && parsed.value ? parsed.value.data : null;
  if (problems.length > 0 || !data || data.status !== "ok") {
    throw new Error(`target ${baseUrl} does not look like graph-stats: /health ${problems.join("; ") || "status is not ok"}`);
  }
  return { version: typeof data.version === "string" ? data.version : null };
}

/**
 * `checkTarget` for every URL of `BASE_URLS`; fails naming each instance that is not ready, so one
 * instance down is not mistaken for the whole deployment (or missed because the others answer).
 * @param {string[]} urls
 * @returns {{ version: string | null }} the first instance's version
 */
export function checkTargets(urls) {
  /** @type {string[]} */
  const down = [];
  /** @type {(string | null)[]} */
  const versions = [];
  for (const url of urls) {
    try {
      versions.push(checkTarget(url, urls.length > 1 ? "BASE_URLS" : "BASE_URL").version);
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
 * Loads `TOKENS` (absolute path to the JSON of `token create --users N --json`) into a SharedArray.
 * Must be called in the init context. Returns null when TOKENS is not set.
 * @param {Record<string, string | undefined>} env
 * @returns {{ user: string, token: string }[] | null}
 */
export function loadTokens(env) {
  const path = env.TOKENS;
  if (!path) return null;
  if (!isAbsolutePath(path))
    throw new Error(`TOKENS must be an absolute path (k6 resolves relative paths against the script), got '${path}'`);
  return new SharedArray("graph-stats tokens", () => parseTokenList(open(path), path));
}

/**
 * Where tokens come from: a TOKENS file, or JWT_SECRET to mint one per VU. Throws when neither is set
 * or when there are fewer tokens than VUs.
 * @param {{ user: string, token: string }[] | null} tokens
 * @param {Record<string, string | undefined>} env
 * @param {number} vus
 * @returns {void}
 */
export function requireTokenSource(tokens, env, vus) {
  if (tokens) requireTokens(tokens.length, vus);
  else if (!env.JWT_SECRET)
    throw new Error(
      "no credentials: pass -e TOKENS=/abs/path/tokens.json (from `graph-stats token create --users N --json`) or -e JWT_SECRET=<the server secret>",
    );
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
