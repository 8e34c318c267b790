// The response envelope of docs/api.md § The envelope, checked as a pure function. In the `core` profile
// only what any implementation must do (success, errors, data, meta.generated_at in UTC); `full` adds
// graph-stats' own forms (meta.request_id on errors, `Z` for UTC).

/** graph-stats' form: `Z` for UTC. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
/** Any ISO 8601 UTC timestamp: `Z` or a zero offset (`+00:00`, `+0000`). */
const ISO_ANY_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]00:?00)$/;

/**
 * @typedef {{ success: boolean, code?: string, message?: string | RegExp, stocks?: boolean }} EnvelopeExpectation
 *   `code` is the expected `errors[0].code`; `message`, when given, must equal (or match) `errors[0].message`;
 *   `stocks` requires `data.stocks` to be an array (the chart endpoints).
 */

/**
 * Parses a body into an object, or returns a problem string.
 * @param {unknown} body raw text (k6 `res.body`) or an already parsed value
 * @returns {{ value: any } | { problem: string }}
 */
export function parseBody(body) {
  if (typeof body !== "string") return { value: body };
  try {
    return { value: JSON.parse(body) };
  } catch (_err) {
    return { problem: `bad-json: body is not JSON: '${body.slice(0, 80)}'` };
  }
}

/**
 * Checks a body against the envelope and the expected outcome.
 * @param {unknown} body
 * @param {EnvelopeExpectation} expect
 * @param {import('./profile.js').Profile} [profile] `full` (graph-stats' forms) unless `core` is given
 * @returns {string[]} problems, empty when all is well
 */
export function checkEnvelope(body, expect, profile) {
  const full = profile !== "core";
  const parsed = parseBody(body);
  if ("problem" in parsed) return [parsed.problem];
  const env = parsed.value;
  if (env === null || typeof env !== "object" || Array.isArray(env)) return ["bad-envelope: body is not a JSON object"];
  const problems = [];
  if (typeof env.success !== "boolean") problems.push("bad-envelope: success is not a boolean");
  else if (env.success !== expect.success) problems.push(`bad-envelope: success is ${env.success}, expected ${expect.success}`);
  problems.push(...checkMeta(env.meta, full && !expect.success, full));
  if (expect.success) {
    if (env.errors !== undefined && !(Array.isArray(env.errors) && env.errors.length === 0)) {
      problems.push("bad-envelope: errors must be empty on success");
    }
    if (env.data === null || typeof env.data !== "object") problems.push("bad-envelope: data must be an object on success");
    else if (expect.stocks && !Array.isArray(env.data.stocks)) problems.push("bad-envelope: data.stocks is not an array");
  } else {
    if (env.data !== null) problems.push("bad-envelope: data must be null on error");
    problems.push(...checkErrors(env.errors, expect));
  }
  return problems;
}

/**
 * @param {any} meta
 * @param {boolean} needRequestId
 * @param {boolean} zulu only the `Z` form of UTC
 * @returns {string[]}
 */
function checkMeta(meta, needRequestId, zulu) {
  if (meta === null || typeof meta !== "object") return ["bad-envelope: meta is missing"];
  const problems = [];
  const at = meta.generated_at;
  if (typeof at !== "string" || !(zulu ? ISO_UTC : ISO_ANY_UTC).test(at) || Number.isNaN(Date.parse(isoForParse(at)))) {
    problems.push(`bad-envelope: meta.generated_at is not an ISO 8601 UTC timestamp: '${meta.generated_at}'`);
  }
  if (needRequestId && (typeof meta.request_id !== "string" || meta.request_id === "")) {
    problems.push("bad-envelope: meta.request_id is missing on an error");
  }
  return problems;
}

/**
 * A zero offset written without its colon (`+0000`) with one, which every `Date.parse` reads.
 * @param {string} at
 * @returns {string}
 */
function isoForParse(at) {
  return at.replace(/([+-]00)(00)$/, "$1:$2");
}

/**
 * @param {any} errors
 * @param {EnvelopeExpectation} expect
 * @returns {string[]}
 */
function checkErrors(errors, expect) {
  if (!Array.isArray(errors) || errors.length === 0) return ["bad-envelope: errors must hold at least one error object"];
  const problems = [];
  for (const e of errors) {
    if (e === null || typeof e !== "object" || typeof e.code !== "string" || typeof e.message !== "string" || e.message === "") {
      problems.push("bad-envelope: every error needs a string code and a non-empty message");
      break;
    }
  }
  const first = errors[0] || {};
  if (expect.code !== undefined && first.code !== expect.code) {
    problems.push(`wrong-code: expected ${expect.code}, got ${first.code}`);
  }
  const want = expect.message;
  if (want !== undefined && typeof first.message === "string") {
    const ok = typeof want === "string" ? first.message === want : want.test(first.message);
    if (!ok) problems.push(`wrong-message: expected '${String(want)}', got '${first.message}'`);
  }
  return problems;
}

/**
 * `errors[0].code` of a body, or null when there is none (success, or not an envelope).
 * @param {unknown} body
 * @returns {string | null}
 */
export function errorCode(body) {
  const parsed = parseBody(body);
  if ("problem" in parsed) return null;
  const env = parsed.value;
  if (!env || !Array.isArray(env.errors) || !env.errors[0] || typeof env.errors[0].code !== "string") return null;
  return env.errors[0].code;
}
