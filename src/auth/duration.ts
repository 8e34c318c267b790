/** Token lifetimes as written on the command line and in GRAPH_STATS_TOKEN_TTL. */

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses a duration such as `24h`, `90m`, `3600s`, `1d` or a bare `3600` (seconds) into seconds.
 * Throws an Error whose message names the value and the accepted forms.
 */
export function parseDuration(s: string): number {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/i.exec(s);
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[(m[2] || "s").toLowerCase()] : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new Error(
      `invalid duration '${s}': expected a positive whole number of seconds, or a number followed by s, m, h or d (e.g. 24h, 90m, 3600s, 1d)`,
    );
  }
  return seconds;
}
