// Token lists made by `graph-stats token create --users N --json`, validated as pure functions.

/**
 * @typedef {{ user: string, token: string }} UserToken
 */

/**
 * Parses and validates the JSON array written by `token create --json`.
 * @param {string} text
 * @param {string} source file name for error messages
 * @returns {UserToken[]}
 */
export function parseTokenList(text, source) {
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
  const seen = /** @type {Record<string, boolean>} */ ({});
  return value.map((item, i) => {
    if (!item || typeof item.user !== "string" || typeof item.token !== "string" || item.token.split(".").length !== 3) {
      throw new Error(`${source}: entry ${i} needs a string "user" and a JWT "token"`);
    }
    if (seen[item.user]) throw new Error(`${source}: user '${item.user}' appears twice; every VU needs its own user`);
    seen[item.user] = true;
    return { user: item.user, token: item.token };
  });
}

/**
 * Fails early when there are fewer users than VUs: two VUs sharing a user would break per-user
 * accounting (each VU must see every request of its user).
 * @param {number} available
 * @param {number} needed
 * @returns {void}
 */
export function requireTokens(available, needed) {
  if (available < needed) {
    throw new Error(
      `need ${needed} tokens (one per VU) but TOKENS has ${available}; ` +
        `create more with 'graph-stats token create --users ${needed} --json' or lower VUS`,
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
