// Tokens given with `TOKENS`: the JSON of `graph-stats token create --users N --json`, a file of tokens
// one per line, or the tokens themselves, separated by commas. Validated as pure functions.

/**
 * @typedef {{ user: string, token: string }} UserToken
 */

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Decodes unpadded base64url into a string of bytes (Latin-1), or null when it is not base64url.
 * @param {string} segment
 * @returns {string | null}
 */
function b64urlDecode(segment) {
  let bits = 0;
  let value = 0;
  let out = "";
  for (let i = 0; i < segment.length; i += 1) {
    const v = B64URL.indexOf(segment.charAt(i));
    if (v < 0) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((value >> bits) & 0xff);
    }
  }
  return out;
}

/**
 * The `sub` of a JWT's payload, when it can be read: the user the token acts as (docs/api.md § Tokens).
 * @param {string} token
 * @returns {string | null}
 */
export function subjectOf(token) {
  const payload = b64urlDecode(token.split(".")[1] || "");
  if (payload === null) return null;
  try {
    const claims = JSON.parse(decodeURIComponent(escape(payload)));
    return claims && typeof claims.sub === "string" ? claims.sub : null;
  } catch (_err) {
    return null;
  }
}

/**
 * True when `TOKENS` holds the tokens themselves (JWTs separated by commas, spaces or newlines), not a path.
 * @param {string} value
 * @returns {boolean}
 */
export function isTokenList(value) {
  const items = splitTokens(value);
  return items.length > 0 && items.every((t) => JWT.test(t));
}

/**
 * @param {string} text
 * @returns {string[]}
 */
function splitTokens(text) {
  return text.split(/[\s,]+/).filter((t) => t !== "");
}

/**
 * Parses and validates tokens: the JSON array written by `token create --json`, or JWTs one per line (or
 * separated by commas). A token's user is its `sub` when readable, else `token-<n>`. A user given twice is
 * refused: every VU must own its user, to see every request of it.
 * @param {string} text
 * @param {string} source file name (or `TOKENS`) for error messages
 * @returns {UserToken[]}
 */
export function parseTokenList(text, source) {
  const trimmed = text.trim();
  /** @type {UserToken[]} */
  let list;
  if (trimmed.charAt(0) === "[") {
    list = parseJsonList(trimmed, source);
  } else {
    const items = splitTokens(trimmed);
    const bad = items.findIndex((t) => !JWT.test(t));
    if (items.length === 0 || bad >= 0) {
      throw new Error(
        `${source}: expected the JSON of 'graph-stats token create --users N --json', or tokens (JWTs) one per line or separated by commas` +
          (bad >= 0 ? `; item ${bad + 1} is not a JWT` : ""),
      );
    }
    list = items.map((token, i) => ({ user: subjectOf(token) || `token-${i + 1}`, token }));
  }
  const seen = /** @type {Record<string, boolean>} */ ({});
  for (const t of list) {
    if (seen[t.user]) throw new Error(`${source}: user '${t.user}' appears twice; every VU needs its own user`);
    seen[t.user] = true;
  }
  return list;
}

/**
 * @param {string} text
 * @param {string} source
 * @returns {UserToken[]}
 */
function parseJsonList(text, source) {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch (_err) {
    throw new Error(`${source}: not JSON; create it with 'graph-stats token create --users N --json > ${source}'`);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new Error(`${source}: expected a non-empty JSON array of {"user","token"} objects`);
  }
  return value.map((item, i) => {
    if (!item || typeof item.user !== "string" || typeof item.token !== "string" || item.token.split(".").length !== 3) {
      throw new Error(`${source}: entry ${i} needs a string "user" and a JWT "token"`);
    }
    return { user: item.user, token: item.token };
  });
}

/**
 * Fails early when there are fewer users than the script needs: two VUs sharing a user would break
 * per-user accounting (each VU must see every request of its user).
 * @param {number} available
 * @param {number} needed
 * @param {string} [why] what needs them, e.g. "limits.js: one user per VU (VUS=20)"
 * @returns {void}
 */
export function requireTokens(available, needed, why) {
  if (available < needed) {
    throw new Error(
      `${why || "one user per VU"}: needs ${needed} users but TOKENS gives ${available}; pass ${needed} tokens ` +
        `(e.g. 'graph-stats token create --users ${needed} --json'), or JWT_SECRET on a test deployment, or ask for fewer`,
    );
  }
}

/**
 * True when a path is absolute (POSIX, Windows drive or file:// URL). k6 resolves relative `open()`
 * paths against the script, not the working directory, so the scripts insist on absolute paths.
 * @param {string} path
 * @returns {boolean}
 */
export function isAbsolutePath(path) {
  return path.charAt(0) === "/" || /^[A-Za-z]:[\\/]/.test(path) || path.indexOf("file://") === 0;
}
