/** Assertions for checks: each failure carries the exchanges that prove it. */
import { isIsoUtc } from "./spec-forms.ts";
import { type Exchange, Failure } from "./types.ts";

/** Fail with `message` and evidence unless `condition`. */
export function must(condition: unknown, message: string, ...evidence: Exchange[]): asserts condition {
  if (!condition) throw new Failure(message, evidence);
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Problems with the envelope of a success response, docs/api.md § The envelope (empty when fine). */
export function successEnvelopeProblems(ex: Exchange): string[] {
  const p: string[] = [];
  const body = ex.json;
  if (!isObj(body)) return [`body is not a JSON object`];
  if (body.success !== true) p.push(`success is ${JSON.stringify(body.success)}, expected true`);
  if ("errors" in body && !(Array.isArray(body.errors) && body.errors.length === 0)) {
    p.push(`errors is ${JSON.stringify(body.errors)?.slice(0, 80)}, expected empty or absent`);
  }
  if (!isObj(body.data)) p.push(`data is ${JSON.stringify(body.data)?.slice(0, 60)}, expected an object`);
  else if (!Array.isArray(body.data.stocks)) p.push(`data.stocks is not an array`);
  p.push(...metaProblems(body));
  return p;
}

/** Problems with the error envelope, docs/api.md § The envelope (empty when fine). */
export function errorEnvelopeProblems(ex: Exchange): string[] {
  const p: string[] = [];
  const body = ex.json;
  if (!isObj(body)) return [`body is not a JSON object`];
  if (body.success !== false) p.push(`success is ${JSON.stringify(body.success)}, expected false`);
  if (body.data !== null) p.push(`data is ${JSON.stringify(body.data)?.slice(0, 60)}, expected null`);
  if (!Array.isArray(body.errors) || body.errors.length === 0) {
    p.push(`errors is ${JSON.stringify(body.errors)?.slice(0, 80)}, expected a non-empty array`);
  } else {
    body.errors.forEach((e, i) => {
      if (!isObj(e) || typeof e.code !== "string" || typeof e.message !== "string") {
        p.push(`errors[${i}] is ${JSON.stringify(e)?.slice(0, 80)}, expected { code: string, message: string }`);
      }
    });
  }
  p.push(...metaProblems(body));
  return p;
}

function metaProblems(body: Obj): string[] {
  if (!isObj(body.meta)) return [`meta is ${JSON.stringify(body.meta)?.slice(0, 60)}, expected an object`];
  if (!isIsoUtc(body.meta.generated_at))
    return [`meta.generated_at is ${JSON.stringify(body.meta.generated_at)}, expected an ISO 8601 UTC timestamp`];
  return [];
}

/** The envelope problems of a response, success or error, decided by its status. */
export function envelopeProblems(ex: Exchange): string[] {
  return ex.status >= 200 && ex.status < 300 ? successEnvelopeProblems(ex) : errorEnvelopeProblems(ex);
}

/** Fail unless the exchange carries a well-formed envelope. */
export function mustHaveEnvelope(ex: Exchange, what: string): void {
  const p = envelopeProblems(ex);
  must(p.length === 0, `${what}: ${p.join("; ")}`, ex);
}

/** `errors[0].code` and `.message` of an error body. */
export function firstError(ex: Exchange): { code?: string; message?: string } {
  const errors = (ex.json as Obj | undefined)?.errors;
  const e = Array.isArray(errors) && isObj(errors[0]) ? errors[0] : {};
  return { code: typeof e.code === "string" ? e.code : undefined, message: typeof e.message === "string" ? e.message : undefined };
}

/** The names of rate-limit headers present on a response. */
export function rateLimitHeadersPresent(ex: Exchange): string[] {
  const out: string[] = [];
  ex.headers.forEach((_v, k) => {
    const n = k.toLowerCase();
    if (n.startsWith("x-ratelimit") || n === "ratelimit" || n === "ratelimit-policy" || n === "retry-after") out.push(k);
  });
  return out;
}
