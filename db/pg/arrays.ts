/**
 * PostgreSQL array literals for unnest(): one parameter per column instead of one per value, so a
 * batch of thousands of rows is one short statement (multi-row VALUES would need 9 parameters a
 * row and hit the 65 535-parameter limit at 7 281 rows).
 */

/** `{1,2.5,-3}`: numbers print in their shortest round-trip form, which float8 reads back exactly. */
export function numberArray(values: readonly number[]): string {
  return `{${values.join(",")}}`;
}

/** `{"A","B"}`: quoted so a value like NULL stays text; symbols never hold `"` or `\` (symbols.ts). */
export function textArray(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/(["\\])/g, "\\$1")}"`).join(",")}}`;
}

/** As textArray, with null written as an unquoted NULL (free text such as a sector may hold `"` or `\`: escaped). */
export function nullableTextArray(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? "NULL" : `"${v.replace(/(["\\])/g, "\\$1")}"`)).join(",")}}`;
}
