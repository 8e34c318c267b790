/** Names the market layer accepts for symbols and universes. */

/** 1-32 characters of letters, digits and `& . _ -` (so `M&M` and `BAJAJ-AUTO` are fine). */
export const SYMBOL_PATTERN = /^[A-Za-z0-9&._-]{1,32}$/;

/** 1-64 characters of letters, digits and `. _ -`. */
export const UNIVERSE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function isValidSymbol(s: string): boolean {
  return SYMBOL_PATTERN.test(s);
}

export function isValidUniverseName(s: string): boolean {
  return UNIVERSE_PATTERN.test(s);
}
