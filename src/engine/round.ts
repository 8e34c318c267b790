/**
 * Output rounding (README.md § How the numbers are computed, step 10): 6 decimals, halves away from
 * zero (so a weight always equals the absolute value of its rounded corr); NaN or ±Infinity become
 * null, never 0 or a string. -0 is printed as 0.
 */

const SCALE = 1e6;

/** x rounded to 6 decimals, or null when x is not a finite number. */
export function round6(x: number): number | null {
  if (!Number.isFinite(x)) return null;
  const r = Math.round(Math.abs(x) * SCALE) / SCALE;
  return r === 0 ? 0 : x < 0 ? -r : r;
}
