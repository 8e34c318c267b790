/**
 * A fuzz case — one request to one operation — and its fast-check arbitrary: a few documented
 * parameters with valid values, then at most two faults (an invalid value, an odd encoding, an
 * unknown parameter, a repeated one, a required one left out), and for the credentials the caller
 * asks for. Shrinking drops parameters and faults and walks values toward the documented bounds.
 */
import fc from "fast-check";
import type { Operation, Param } from "./document.ts";
import { decodeQueryValue, encodeValue, invalidValues, oddValues, type RawValue, validValues, violation } from "./values.ts";

/** Credentials a case is sent with. `valid` is a real token (fresh user or --token); the rest are probes no server may accept. */
export type AuthKind = "valid" | "none" | "garbage" | "basic" | "empty-bearer" | "not-a-jwt" | "alg-none" | "forged" | "rs256" | "expired";

export const PROBE_AUTHS: AuthKind[] = ["none", "garbage", "basic", "empty-bearer", "not-a-jwt", "alg-none", "forged", "rs256", "expired"];

export interface QueryItem {
  name: string;
  raw: string;
  kind: RawValue["kind"] | "unknown" | "repeated";
  how: string;
}

export interface FuzzCase {
  op: string;
  query: QueryItem[];
  /** Header parameters of the operation, already valid strings. */
  headers: Record<string, string>;
  /** Path parameters substituted into the path (valid values only: a wrong path is another route). */
  pathValues: Record<string, string>;
  auth: AuthKind;
  /** Sent twice by the same user (a metered operation with fresh users): the second answer is usually the 429. */
  twice: boolean;
}

/** What the document lets the kit expect of a case, decided from the schemas alone. */
export interface Expectation {
  /** Values the schemas forbid (and required parameters left out): no 2xx may answer them. */
  violations: string[];
  /** The case carries no valid credentials for a secured operation: no 2xx may answer it. */
  badCredentials: boolean;
}

const UNKNOWN_NAMES = ["x", "foo", "access_token", "__proto__", "constructor", "a%5B%5D", "%00", "callback", "_"];

function itemOf(p: Param, v: RawValue): QueryItem {
  return { name: p.name, raw: v.raw, kind: v.kind, how: v.how };
}

type Fault =
  | { kind: "replace"; item: QueryItem }
  | { kind: "unknown"; item: QueryItem }
  | { kind: "repeat"; name: string; raw: string }
  | { kind: "omit"; name: string };

/** The arbitrary of cases for `op`; `auths` are the credential kinds this check sends. */
export function caseArbitrary(op: Operation, auths: AuthKind[], opts: { twice?: boolean } = {}): fc.Arbitrary<FuzzCase> {
  const query = op.params.filter((p) => p.in === "query");
  const valid = new Map(query.map((p) => [p.name, validValues(p.schema, p.examples)] as const));
  const entry = (p: Param) =>
    valid.get(p.name)!.map((v): QueryItem => ({ name: p.name, raw: encodeValue(v), kind: "valid", how: "valid" }));

  const optional = query.filter((p) => !p.required);
  const chosen = optional.length ? fc.array(fc.oneof(...optional.map(entry)), { maxLength: 4 }) : fc.constant([] as QueryItem[]);
  const required = query.filter((p) => p.required);
  const requiredItems = required.length ? fc.tuple(...required.map(entry)) : fc.constant([] as QueryItem[]);

  // The kind of fault first, then the parameter: each kind is as likely however many parameters there are.
  const perParam = (params: Param[], f: (p: Param) => fc.Arbitrary<Fault>) => (params.length ? [fc.oneof(...params.map(f))] : []);
  // Unknown names: fixed ones, and the documented names in another case (query names are case-sensitive).
  const unknown = [
    ...UNKNOWN_NAMES,
    ...query.map((p) => encodeValue(p.name.toUpperCase())).filter((n) => !query.some((p) => p.name === n)),
  ];
  const faultArbs: fc.Arbitrary<Fault>[] = [
    ...perParam(query, (p) => invalidValues(p.schema).map((v): Fault => ({ kind: "replace", item: itemOf(p, v) }))),
    ...perParam(query, (p) => oddValues(valid.get(p.name)!).map((v): Fault => ({ kind: "replace", item: itemOf(p, v) }))),
    ...perParam(query, (p) => valid.get(p.name)!.map((v): Fault => ({ kind: "repeat", name: p.name, raw: encodeValue(v) }))),
    ...perParam(required, (p) => fc.constant<Fault>({ kind: "omit", name: p.name })),
    fc.tuple(fc.constantFrom(...unknown), fc.constantFrom("1", "", "true")).map(
      ([name, raw]): Fault => ({
        kind: "unknown",
        item: { name, raw, kind: "unknown", how: "an undocumented parameter" },
      }),
    ),
  ];
  // withCrossShrink: a failing case with faults may shrink to one without any, the smallest there is.
  const faults = fc.oneof(
    { withCrossShrink: true },
    { weight: 4, arbitrary: fc.constant([] as Fault[]) },
    { weight: 5, arbitrary: fc.array(fc.oneof(...faultArbs), { minLength: 1, maxLength: 2 }) },
  );

  const headerParams = op.params.filter((p) => p.in === "header");
  const headers = fc.record(Object.fromEntries(headerParams.map((p) => [p.name, validValues(p.schema, p.examples)])), {
    requiredKeys: headerParams.filter((p) => p.required).map((p) => p.name),
  }) as fc.Arbitrary<Record<string, string>>;
  const pathParams = op.params.filter((p) => p.in === "path");
  // A path segment "." or ".." is removed by URL parsing (RFC 3986 §5.2.4) before any server sees it.
  const segment = (p: Param) => validValues(p.schema, p.examples).filter((v) => v !== "." && v !== "..");
  const pathValues = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, segment(p)]))) as fc.Arbitrary<Record<string, string>>;

  return fc
    .record({
      required: requiredItems,
      chosen,
      faults,
      headers,
      pathValues,
      auth: fc.constantFrom(...auths),
      twice: opts.twice
        ? fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })
        : fc.constant(false),
    })
    .map(({ required: req, chosen: ch, faults: fs, headers: hs, pathValues: pv, auth, twice }): FuzzCase => {
      // One value per documented name before the faults: a repeat is a fault of its own.
      const items: QueryItem[] = [];
      for (const it of [...req, ...ch]) if (!items.some((x) => x.name === it.name)) items.push(it);
      for (const f of fs) {
        if (f.kind === "replace") {
          const at = items.findIndex((x) => x.name === f.item.name);
          if (at >= 0) items[at] = f.item;
          else items.push(f.item);
        } else if (f.kind === "unknown") items.push(f.item);
        else if (f.kind === "repeat") {
          if (!items.some((x) => x.name === f.name)) items.push({ name: f.name, raw: f.raw, kind: "valid", how: "valid" });
          items.push({ name: f.name, raw: f.raw, kind: "repeated", how: "given twice" });
        } else {
          const at = items.findIndex((x) => x.name === f.name);
          if (at >= 0) items.splice(at, 1);
        }
      }
      return { op: op.id, query: items, headers: hs, pathValues: pv, auth, twice };
    });
}

/** The query string exactly as sent. */
export function queryString(c: FuzzCase): string {
  return c.query.map((q) => `${q.name}=${q.raw}`).join("&");
}

/** The request path with path parameters substituted, and the query. */
export function requestPath(op: Operation, c: FuzzCase): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeValue(c.pathValues[name] ?? "x"));
  const q = queryString(c);
  return q ? `${path}?${q}` : path;
}

/** What the document allows the kit to expect of this case (see Expectation). */
export function expectationOf(op: Operation, c: FuzzCase): Expectation {
  const violations: string[] = [];
  const sent = new URLSearchParams(queryString(c).replace(/#/g, "%23"));
  for (const p of op.params.filter((x) => x.in === "query")) {
    const values = sent.getAll(p.name);
    if (!values.length && p.required) violations.push(`required ${p.name} left out`);
    const judged = [...new Set(values)].map((v) => ({ v, why: violation(v, p.schema) }));
    // A parameter given twice: OpenAPI does not say which value counts (the first, the last, or none), so
    // an implementation where the last wins may rightly answer `p=<bad>&p=<good>` with a 2xx. Only when
    // every value given is forbidden is a 2xx wrong whichever it picks.
    if (judged.some((j) => j.why === undefined)) continue;
    for (const { v, why } of judged) violations.push(`${p.name}=${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)}: ${why}`);
  }
  return { violations, badCredentials: op.secured && c.auth !== "valid" };
}

/** One line describing a case for reports: its operation, credentials and each parameter with how it was made. */
export function describeCase(c: FuzzCase): string {
  const parts = c.query.map((q) => {
    const shown = decodeQueryValue(q.raw);
    const v = shown.length > 40 ? `${shown.slice(0, 40)}…(${shown.length} chars)` : shown;
    return q.kind === "valid" ? `${q.name}=${JSON.stringify(v)}` : `${q.name}=${JSON.stringify(v)} [${q.kind}: ${q.how}]`;
  });
  return `${c.op} auth=${c.auth}${c.twice ? " (sent twice)" : ""}${parts.length ? ` ${parts.join(" ")}` : " (no parameters)"}`;
}
