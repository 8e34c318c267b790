/**
 * Values for one parameter, from its schema alone: valid ones at and around every documented bound
 * (and the document's examples), invalid ones of every kind (wrong type, out of range, not in the
 * enum, against the pattern, too long), and valid ones encoded oddly. Whether a value is valid is
 * decided afterwards by `violation`, from the schema, never from which generator made it.
 */
import fc from "fast-check";
import { ajvErrors, validatorFor } from "./ajv.ts";
import type { Schema } from "./document.ts";

/** How a query value was made; `odd` values are raw (already percent-encoded, on purpose oddly). */
export type ValueKind = "valid" | "invalid" | "odd";

export interface RawValue {
  /** Exactly what goes on the wire after `name=`. */
  raw: string;
  kind: ValueKind;
  /** A short word on how it was made, shown in reports (`max`, `max+1`, `wrong type`, `%00 appended`). */
  how: string;
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : []);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const MAX_GENERATED = 600;

/** Lower and upper bounds of a numeric schema, exclusive bounds moved in by one step. */
function bounds(s: Schema, integer: boolean): { min?: number; max?: number } {
  const step = integer ? 1 : 1e-6;
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  const min = exMin !== undefined ? exMin + step : num(s.minimum);
  const max = exMax !== undefined ? exMax - step : num(s.maximum);
  // zod and others write the safe-integer range into every int: that is no documented bound.
  const real = (v?: number) => (v !== undefined && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
  return { min: real(min), max: real(max) };
}

/** The string a value has on the wire before percent-encoding (arrays comma-separated: OpenAPI's form, explode=false). */
export function serialise(v: unknown): string {
  if (Array.isArray(v)) return v.map(serialise).join(",");
  if (typeof v === "string") return v;
  return JSON.stringify(v) ?? "";
}

/**
 * The ways a wire string may stand for a value of the schema: itself, and the number or boolean it
 * spells (a query has only strings). Integers are digits only: `1e1` or ` 60` is no integer.
 */
function readings(text: string, s: Schema): unknown[] {
  const out: unknown[] = [text];
  const t = types(s);
  if (/^-?\d+$/.test(text)) out.push(Number(text));
  else if ((t.includes("number") || !t.length) && /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) out.push(Number(text));
  if (text === "true" || text === "false") out.push(text === "true");
  if (t.includes("array")) out.push(text === "" ? [] : text.split(",").map((x) => readings(x, (s.items as Schema) ?? {}).at(-1)));
  return out;
}

/** Why `text` is not a value the schema allows, or undefined when it is. */
export function violation(text: string, schema: Schema): string | undefined {
  const validate = validatorFor(schema);
  let why: string[] | undefined;
  for (const v of readings(text, schema)) {
    if (validate(v)) return undefined;
    // The reading of the right type says what is wrong ("must be <= 1000"), not "must be integer".
    const typeOnly = (validate.errors ?? []).every((e) => e.keyword === "type");
    if (!why || !typeOnly) why = ajvErrors(validate.errors, 2);
  }
  return (why ?? []).join("; ").replace(/^\(root\) /, "") || "not allowed by its schema";
}

function dateString(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const dates = fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true });

/** Valid wire strings of a schema, biased to its bounds and to the document's examples. */
export function validValues(schema: Schema, examples: unknown[] = []): fc.Arbitrary<string> {
  const candidates: fc.Arbitrary<string>[] = [];
  const constants = new Set<string>();
  for (const e of examples) constants.add(serialise(e));
  const t = types(schema);
  if (Array.isArray(schema.enum)) for (const e of schema.enum) constants.add(serialise(e));
  if (schema.const !== undefined) constants.add(serialise(schema.const));
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key])) for (const sub of schema[key] as Schema[]) candidates.push(validValues(sub));
  }
  if (!Array.isArray(schema.enum) && schema.const === undefined) {
    if (t.includes("integer") || t.includes("number")) {
      const integer = t.includes("integer") && !t.includes("number");
      const { min, max } = bounds(schema, integer);
      const lo = min ?? (max !== undefined ? max - 1000 : -1000);
      const hi = max ?? lo + 2000;
      for (const v of [min, max, min !== undefined ? min + 1 : undefined, max !== undefined ? max - 1 : undefined]) {
        if (v !== undefined && v >= lo && v <= hi) constants.add(String(v));
      }
      if (integer) candidates.push(fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }).map(String));
      else {
        if (min !== undefined && max !== undefined) constants.add(String((min + max) / 2));
        candidates.push(fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).map((d) => String(Object.is(d, -0) ? 0 : d)));
      }
    }
    if (t.includes("boolean")) for (const b of ["true", "false"]) constants.add(b);
    if (t.includes("string") || !t.length) {
      const minLength = num(schema.minLength) ?? 0;
      const maxLength = Math.min(num(schema.maxLength) ?? 40, MAX_GENERATED);
      if (schema.format === "date") candidates.push(dates.map(dateString));
      else if (schema.format === "date-time") candidates.push(dates.map((d) => d.toISOString()));
      else if (typeof schema.pattern === "string") {
        let re: RegExp | undefined;
        try {
          re = new RegExp(schema.pattern, "u");
        } catch {
          re = undefined;
        }
        if (re) candidates.push(fc.stringMatching(re, { size: "small", maxLength: MAX_GENERATED }));
      } else candidates.push(fc.string({ minLength, maxLength, unit: "grapheme-ascii" }));
    }
    if (t.includes("array") && schema.items) {
      const item = validValues(schema.items as Schema);
      const minItems = num(schema.minItems) ?? 0;
      candidates.push(
        fc
          .array(item, { minLength: minItems, maxLength: Math.max(minItems, Math.min(num(schema.maxItems) ?? 4, 6)) })
          .map((a) => a.join(",")),
      );
    }
  }
  const fixed = [...constants].filter((c) => violation(c, schema) === undefined);
  const all: fc.Arbitrary<string>[] = [];
  // Bounds, enum members and examples first: shrinking walks toward the first arbitrary of a oneof.
  if (fixed.length) all.push(fc.constantFrom(...fixed));
  // No fc.filter: a schema that generators rarely satisfy would make it retry forever. A value that
  // misses is replaced by a known-good one; with none, it stays, and `violation` will say so.
  const fallback = fixed[0];
  all.push(...candidates.map((a) => (fallback === undefined ? a : a.map((v) => (violation(v, schema) === undefined ? v : fallback)))));
  if (!all.length) return fc.constant("");
  // Cross-shrinking lets a failing random value shrink to a bound or example.
  return fixed.length && all.length > 1
    ? fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: all[0]! }, ...all.slice(1))
    : fc.oneof(...all);
}

/** Candidates that break the schema in one way each; `violation` confirms each before use. */
function invalidCandidates(schema: Schema): [string, string][] {
  const t = types(schema);
  const out: [string, string][] = [
    ["", "empty"],
    ["%20", "a space"],
    ["abc", "a word"],
    ["%3Cscript%3E", "markup"],
    ["%F0%9F%92%A5", "an emoji"],
  ];
  if (t.includes("integer") || t.includes("number")) {
    const integer = t.includes("integer") && !t.includes("number");
    const { min, max } = bounds(schema, integer);
    const step = integer ? 1 : 0.001;
    if (min !== undefined) out.push([String(min - step), "min-1"], [String(min - 1000), "far below min"]);
    if (max !== undefined) out.push([String(Number((max + step).toFixed(6))), "max+1"], [String(max * 1000 + 7), "far above max"]);
    out.push(["1.5", "a fraction"], ["0x10", "hex"], ["1e3", "exponent form"], ["NaN", "NaN"], ["Infinity", "Infinity"]);
    out.push(["9".repeat(30), "30 digits"], ["1%2C5", "a decimal comma"], ["--1", "two signs"]);
  }
  if (Array.isArray(schema.enum)) {
    const first = serialise(schema.enum[0]);
    out.push([encodeURIComponent(first.toUpperCase()), "enum value upper-cased"], [encodeURIComponent(`${first}x`), "enum value + x"]);
    out.push([`%20${encodeURIComponent(first)}`, "enum value after a space"], ["none_of_these", "not in the enum"]);
  }
  if (t.includes("boolean")) out.push(["yes", "yes"], ["TRUE", "TRUE"], ["2", "2"]);
  if (t.includes("string")) {
    const maxLength = num(schema.maxLength);
    if (maxLength !== undefined && maxLength < 2000) out.push(["a".repeat(maxLength + 1), "maxLength+1"]);
    if (schema.format === "date") {
      for (const d of [
        "2024-02-30",
        "2023-02-29",
        "2024-13-01",
        "2024-00-10",
        "24-01-01",
        "2024%2F01%2F01",
        "20240101",
        "2024-01-01T00%3A00%3A00Z",
      ]) {
        out.push([d, "not a calendar date"]);
      }
    }
    if (typeof schema.pattern === "string") out.push(["%C3%A9t%C3%A9", "non-ASCII"], ["a%20b", "inner space"], ["%2C%2C", "commas only"]);
  }
  return out;
}

/** Wire strings the schema forbids, each with what makes it wrong (random text for a schema that forbids nothing we know of). */
export function invalidValues(schema: Schema): fc.Arbitrary<RawValue> {
  const confirmed = invalidCandidates(schema).filter(([raw]) => violation(decodeQueryValue(raw), schema) !== undefined);
  // Random text, unfiltered (a permissive schema would make a filter spin): whether it is valid is
  // decided by `violation` when the case is judged, like every other value.
  const random = fc
    .string({ maxLength: 12, unit: "grapheme" })
    .map((text): RawValue => ({ raw: encodeURIComponent(text), kind: "odd", how: "random text" }));
  if (!confirmed.length) return random;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...confirmed).map(([raw, how]): RawValue => ({ raw, kind: "invalid", how })) },
    { weight: 1, arbitrary: random },
  );
}

/** A valid value's wire form: percent-encoded like encodeURIComponent, so what the server decodes is the value. */
export function encodeValue(v: string): string {
  return encodeURIComponent(v);
}

const hexAll = (v: string) => [...new TextEncoder().encode(v)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** Odd encodings of a valid value: some decode to it (every byte escaped, lower-case hex), others damage it. */
export function oddValues(valid: fc.Arbitrary<string>): fc.Arbitrary<RawValue> {
  const ways: [string, (v: string) => string][] = [
    ["every byte percent-encoded", hexAll],
    ["lower-case hex escapes", (v) => hexAll(v).toLowerCase()],
    ["spaces as +", (v) => encodeValue(v).replace(/%20/g, "+")],
    ["%00 appended", (v) => `${encodeValue(v)}%00`],
    ["a bad escape %ZZ", (v) => `${encodeValue(v)}%ZZ`],
    ["a lone %", (v) => `${encodeValue(v)}%`],
    ["an overlong UTF-8 /", (v) => `${encodeValue(v)}%C0%AF`],
    ["a byte-order mark before", (v) => `%EF%BB%BF${encodeValue(v)}`],
    ["a right-to-left override before", (v) => `%E2%80%AE${encodeValue(v)}`],
    ["an encoded &x=1 inside", (v) => `${encodeValue(v)}%26x%3D1`],
    ["a tab after", (v) => `${encodeValue(v)}%09`],
    ["raw ;,:@$ after", (v) => `${encodeValue(v)};,:@$`],
    ["4,500 more characters", (v) => `${encodeValue(v)}${"9".repeat(4500)}`],
  ];
  return fc
    .tuple(fc.constantFrom(...ways), valid)
    .map(([[how, f], v]): RawValue => ({ raw: f(v), kind: "odd", how: `${JSON.stringify(v.slice(0, 40))} with ${how}` }));
}

/** What a server reading the query with the WHATWG rules sees for one raw value ('+' a space, bad escapes kept, bad UTF-8 replaced). */
export function decodeQueryValue(raw: string): string {
  return new URLSearchParams(`v=${raw.replace(/&/g, "%26").replace(/#/g, "%23")}`).get("v") ?? "";
}
