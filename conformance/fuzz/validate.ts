/**
 * Judges one response against the document: the status is documented for the operation, the
 * Content-Type is one the status declares, the body is valid against that media type's schema,
 * every required header is present and every documented header present is valid; and against the
 * interface: no 5xx, the envelope on the interface's routes, Retry-After on a 429, and no 2xx for
 * a request the schemas forbid or that carries no valid credentials.
 */
import type { ValidateFunction } from "ajv";
import { envelopeProblems } from "../lib/assert.ts";
import { DEMO_PATH, HEALTH_PATH, LIVE_PATH } from "../lib/context.ts";
import type { Exchange } from "../lib/types.ts";
import { ajvErrors, newAjv, validatorFor } from "./ajv.ts";
import type { Expectation } from "./cases.ts";
import type { LoadedDocument, Operation, ResponseSpec, Schema } from "./document.ts";

/** The routes docs/api.md § The envelope puts in the envelope; other documented routes (the document itself, /docs) are not. */
const ENVELOPE_ROUTES = new Set([LIVE_PATH, DEMO_PATH, HEALTH_PATH]);

/** The documented response for a status: exact, then its range (`4XX`), then `default`. */
export function documentedResponse(op: Operation, status: number): ResponseSpec | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.DEFAULT;
}

/** The media type a Content-Type names, lower-cased, without parameters. */
export function mediaType(contentType: string | null): string | undefined {
  const t = contentType?.split(";")[0]?.trim().toLowerCase();
  return t || undefined;
}

function declaredFor(spec: ResponseSpec, type: string): { schema?: string; lineSchema?: string } | undefined {
  if (spec.content[type]) return spec.content[type];
  const [major] = type.split("/");
  return spec.content[`${major}/*`] ?? spec.content["*/*"];
}

const isJsonType = (t: string) => t === "application/json" || t.endsWith("+json");

/** A header's value read as its schema's type (a header carries a string; OpenAPI's `simple` style). */
function headerReading(value: string, schema: Schema): unknown {
  const t = Array.isArray(schema.type) ? schema.type : [schema.type];
  if ((t.includes("integer") || t.includes("number")) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim());
  if (t.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** One document's validators: the ajv holding it and the schemas compiled from it, by pointer. */
interface Compiled {
  ajv: ReturnType<typeof newAjv>;
  byPointer: Map<string, ValidateFunction>;
}

/**
 * By the document's JSON text, the last few: a process that judges many runs against the same
 * document (the kill test: one run per mutant, each loading the document afresh) compiles each
 * schema once, not once a run. The same text compiles to the same validators.
 */
const compiledByDocument = new Map<string, Compiled>();
const MAX_DOCUMENTS = 4;

function compiledFor(doc: unknown): Compiled {
  const text = JSON.stringify(doc);
  let c = compiledByDocument.get(text);
  if (c) {
    compiledByDocument.delete(text); // most recently used last
  } else {
    c = { ajv: newAjv(), byPointer: new Map() };
    c.ajv.addSchema(doc as object, "openapi");
    if (compiledByDocument.size >= MAX_DOCUMENTS) compiledByDocument.delete(compiledByDocument.keys().next().value!);
  }
  compiledByDocument.set(text, c);
  return c;
}

/** Validators over one loaded document, compiled once per schema pointer (and per document text in the process). */
export class Judge {
  private readonly ajv: Compiled["ajv"];
  private readonly compiled: Map<string, ValidateFunction>;

  constructor(readonly loaded: LoadedDocument) {
    const c = compiledFor(loaded.doc);
    this.ajv = c.ajv;
    this.compiled = c.byPointer;
  }

  private schemaAt(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) {
      const ref = pointer.startsWith("#") ? `openapi${pointer}` : pointer;
      v = this.ajv.getSchema(ref);
      if (!v) throw new Error(`no schema at ${pointer} in ${this.loaded.source}`);
      this.compiled.set(pointer, v);
    }
    return v;
  }

  /** Every way `ex` departs from the document and the interface; empty when it conforms. */
  problems(op: Operation, ex: Exchange, expect: Expectation): string[] {
    const p: string[] = [];
    const documented = Object.keys(op.responses).join(", ");
    if (ex.status >= 500) p.push(`answered ${ex.status}: a server error (no request, however odd, may cause one)`);
    if (ex.status >= 200 && ex.status < 300) {
      if (expect.badCredentials) p.push(`answered ${ex.status} without valid credentials (the operation requires them)`);
      if (expect.violations.length) p.push(`answered ${ex.status} to values its schemas forbid: ${expect.violations.join("; ")}`);
    }
    const spec = documentedResponse(op, ex.status);
    if (!spec) {
      p.push(`status ${ex.status} is not documented for ${op.id} (documented: ${documented})`);
      return p;
    }
    p.push(...this.contentProblems(spec, ex));
    p.push(...this.headerProblems(spec, ex));
    if (ENVELOPE_ROUTES.has(op.path) && mediaType(ex.headers.get("content-type")) === "application/json" && ex.json !== undefined) {
      // /health's data has no stocks: the data.stocks rule is the chart routes'.
      const env = envelopeProblems(ex).filter((s) => !(op.path === HEALTH_PATH && s.includes("stocks")));
      p.push(...env.map((s) => `envelope: ${s}`));
    }
    if (ex.status === 429) {
      const ra = ex.headers.get("retry-after");
      if (ra === null || !/^\d+$/.test(ra) || Number(ra) < 1)
        p.push(`429 without Retry-After in whole seconds >= 1 (got ${JSON.stringify(ra)})`);
    }
    return p;
  }

  private contentProblems(spec: ResponseSpec, ex: Exchange): string[] {
    const type = mediaType(ex.headers.get("content-type"));
    const declared = Object.keys(spec.content);
    if (!declared.length) return ex.body.length ? [`a ${ex.status} with a body where the document declares none`] : [];
    if (!type) return [`no Content-Type; the document declares ${declared.join(", ")} for ${spec.status}`];
    const media = declaredFor(spec, type);
    if (!media) return [`Content-Type ${type} is not declared for ${spec.status} (declared: ${declared.join(", ")})`];
    if (isJsonType(type)) {
      if (ex.json === undefined) return [`the body is not JSON although the Content-Type is ${type}`];
      if (!media.schema) return [];
      const v = this.schemaAt(media.schema);
      return v(ex.json) ? [] : ajvErrors(v.errors).map((e) => `body ${e}`);
    }
    if (type === "application/x-ndjson" || type === "application/jsonl") {
      const lines = ex.body.split("\n").filter((l) => l.trim() !== "");
      const v = media.lineSchema ? this.schemaAt(media.lineSchema) : undefined;
      for (const [i, line] of lines.entries()) {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return [`NDJSON line ${i + 1} is not JSON: ${line.slice(0, 60)}`];
        }
        if (v && !v(value)) return ajvErrors(v.errors, 2).map((e) => `NDJSON line ${i + 1}: ${e}`);
      }
      return [];
    }
    if (media.schema) {
      // A text body (CSV, HTML) is a string; only its schema's string rules can be checked.
      const v = this.schemaAt(media.schema);
      if (!v(ex.body)) return ajvErrors(v.errors).map((e) => `body ${e}`);
    }
    return [];
  }

  private headerProblems(spec: ResponseSpec, ex: Exchange): string[] {
    const p: string[] = [];
    for (const h of spec.headers) {
      const value = ex.headers.get(h.name);
      if (value === null) {
        if (h.required) p.push(`documented header ${h.name} is missing (required on ${spec.status})`);
        continue;
      }
      if (!Object.keys(h.schema).length) continue;
      const v = validatorFor(h.schema);
      if (!v(headerReading(value, h.schema)))
        p.push(
          `header ${h.name}: ${JSON.stringify(value)} ${ajvErrors(v.errors, 1)
            .join("")
            .replace(/^\(root\) /, "")}`,
        );
    }
    return p;
  }
}
