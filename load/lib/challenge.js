// The `WWW-Authenticate` challenge of a 401 (docs/api.md § Headers, RFC 6750 §3): always the realm; the error code
// and its description only when a bearer token was actually presented, since a request without one
// (no header, another scheme, a bare `Bearer`) carries "no authentication information" (RFC 6750 §3.1).

const REALM = 'Bearer realm="graph-stats"';
// RFC 6750 §3: error_description is %x20-21 / %x23-5B / %x5D-7E (printable ASCII without `"` and `\`).
const DESCRIPTION_CHARS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * The 401 message as it can appear in `error_description`: dashes folded to `-`, other characters outside
 * the allowed set dropped.
 * @param {string} message
 * @returns {string}
 */
export function describable(message) {
  return message.replace(/[\u2013\u2014]/g, "-").replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "");
}

/**
 * The auth-params of a `Bearer` challenge, by name; null when it is not a Bearer challenge of quoted params.
 * @param {string} challenge
 * @returns {Record<string, string> | null}
 */
export function challengeParams(challenge) {
  const m = /^Bearer\s+(.*)$/.exec(challenge.trim());
  if (!m) return null;
  /** @type {Record<string, string>} */
  const params = {};
  let rest = m[1];
  while (rest.length > 0) {
    const p = /^\s*([A-Za-z_]+)="([^"\\]*)"\s*(,|$)/.exec(rest);
    if (!p) return null;
    params[p[1]] = p[2];
    rest = rest.slice(p[0].length);
  }
  return params;
}

/**
 * Problems with the challenge of a 401 to a request that presented a token (`tokenSent`) or not.
 * @param {string | null} challenge the `WWW-Authenticate` value
 * @param {{ tokenSent: boolean, message: string }} expected
 * @returns {string[]} problems, empty when all is well
 */
export function checkChallenge(challenge, expected) {
  if (challenge === null) return ["missing-header: WWW-Authenticate"];
  const params = challengeParams(challenge);
  if (params === null || params.realm !== "graph-stats" || challenge.indexOf(REALM) !== 0) {
    return [`bad-header: WWW-Authenticate is not '${REALM}[, error=..., error_description=...]': '${challenge}'`];
  }
  const problems = [];
  if (!expected.tokenSent) {
    if ("error" in params || "error_description" in params) {
      problems.push(`bad-header: WWW-Authenticate carries an error though no bearer token was sent (RFC 6750 §3.1): '${challenge}'`);
    }
    return problems;
  }
  if (params.error !== "invalid_token") problems.push(`bad-header: WWW-Authenticate error is '${params.error}', expected 'invalid_token'`);
  const description = params.error_description;
  if (description === undefined) problems.push("bad-header: WWW-Authenticate lacks error_description");
  else if (!DESCRIPTION_CHARS.test(description))
    problems.push(`bad-header: error_description has characters RFC 6750 forbids: '${description}'`);
  else if (description !== describable(expected.message)) {
    problems.push(`bad-header: error_description '${description}' is not the 401 message '${expected.message}'`);
  }
  return problems;
}
