/** Values to the query string, and parameter names checked before any request is sent. */

export type Value = string | number | boolean | Date | null | undefined | readonly (string | number | Date)[];

/** A name the route does not take is a TypeError naming it (and the closest known name). */
export function checkNames(route: string, params: object, known: readonly string[]): void {
  const unknown = Object.keys(params).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const problems = unknown.map((name) => {
    const close = closest(name, known);
    return `'${name}'${close ? ` (did you mean '${close}'?)` : ""}`;
  });
  throw new TypeError(`${route}() got unknown parameter ${problems.join(", ")}; it takes: ${known.join(", ")}`);
}

function encodeOne(name: string, value: Exclude<Value, null | undefined>): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (Array.isArray(value)) return value.map((v) => encodeOne(name, v)).join(",");
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  throw new TypeError(`parameter '${name}': cannot send ${typeof value}; use a string, number, boolean, Date or an array of them`);
}

/** The query string: arrays comma-joined, Dates as YYYY-MM-DD (UTC), undefined/null left out. */
export function encodeQuery(params: Record<string, Value>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null) search.append(name, encodeOne(name, value));
  return search.toString().replaceAll("%2C", ",");
}

function closest(name: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
