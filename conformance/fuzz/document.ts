/**
 * The OpenAPI document the fuzzer is driven by: loaded from the deployment (`/openapi.json`) or a
 * file (`--openapi FILE`), its local `$ref`s resolved, and its GET operations flattened into what
 * generation and judging need. Only the document's own words are used: nothing here knows the
 * graph-stats routes.
 */
import type { Client } from "../lib/client.ts";
import { UsageError } from "../lib/types.ts";

export type Json = Record<string, unknown>;
export type Schema = Json;

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A parameter as generation needs it: where it goes, whether it must be sent, its schema and examples. */
export interface Param {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required: boolean;
  schema: Schema;
  /** Values the document offers as examples (parameter `example(s)`, schema `examples`, `default`). */
  examples: unknown[];
}

export interface HeaderSpec {
  name: string;
  required: boolean;
  schema: Schema;
}

/** One documented response: its headers and, per media type, a JSON pointer to the body schema. */
export interface ResponseSpec {
  status: string;
  headers: HeaderSpec[];
  /** Media type → pointer of its schema in the document (for ajv), and of an `x-line-schema` (NDJSON lines). */
  content: Record<string, { schema?: string; lineSchema?: string }>;
}

export interface Operation {
  /** operationId, or `GET /path` when the document gives none. */
  id: string;
  method: "get";
  path: string;
  /** The operation needs credentials (a non-empty security requirement, its own or the document's). */
  secured: boolean;
  params: Param[];
  responses: Record<string, ResponseSpec>;
}

export interface LoadedDocument {
  /** Where it came from, for messages: the URL or the file. */
  source: string;
  version: string;
  /** The document with OpenAPI 3.0 schema forms rewritten to JSON Schema 2020-12 (nullable, boolean exclusive bounds). */
  doc: Json;
  operations: Operation[];
  /** Operations the fuzzer leaves alone (methods other than GET: they may change state). */
  ignored: string[];
}

/** `~` and `/` escaped for a JSON pointer segment (RFC 6901). */
export function pointerSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith("#")) throw new UsageError(`the OpenAPI document refers to '${ref}': only local references (#/...) are supported`);
  let node: unknown = doc;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObj(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

/** Follow `$ref`s of an object (parameter, response, header) until a real one; undefined when dangling. */
export function deref(doc: Json, node: unknown, seen = new Set<string>()): Json | undefined {
  if (!isObj(node)) return undefined;
  if (typeof node.$ref !== "string") return node;
  if (seen.has(node.$ref)) throw new UsageError(`the OpenAPI document has a reference cycle at ${node.$ref}`);
  seen.add(node.$ref);
  return deref(doc, resolvePointer(doc, node.$ref), seen);
}

/** A schema with every `$ref` inlined (cycles cut to `{}`), for generation: fast-check needs the whole shape. */
export function inlineSchema(doc: Json, schema: unknown, depth = 0): Schema {
  if (!isObj(schema) || depth > 20) return {};
  const resolved = typeof schema.$ref === "string" ? resolvePointer(doc, schema.$ref) : schema;
  if (!isObj(resolved)) return {};
  const out: Json = {};
  for (const [k, v] of Object.entries(resolved)) {
    if (k === "$ref") continue;
    if (Array.isArray(v)) out[k] = v.map((x) => (isObj(x) ? inlineSchema(doc, x, depth + 1) : x));
    else if (isObj(v) && k !== "examples" && k !== "default" && k !== "const") out[k] = inlineSchema(doc, v, depth + 1);
    else out[k] = v;
  }
  return out;
}

/**
 * OpenAPI 3.0 schema forms rewritten in place to their JSON Schema 2020-12 equivalents, so one
 * validator serves both versions: `nullable: true`, and boolean `exclusiveMinimum`/`exclusiveMaximum`.
 */
function normalise30(node: unknown): void {
  if (Array.isArray(node)) {
    for (const x of node) normalise30(x);
    return;
  }
  if (!isObj(node)) return;
  if (node.nullable === true) {
    if (typeof node.type === "string") node.type = [node.type, "null"];
    else if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
    delete node.nullable;
  }
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (node[flag] === true && typeof node[bound] === "number") {
      node[flag] = node[bound];
      delete node[bound];
    } else if (node[flag] === false) delete node[flag];
  }
  for (const v of Object.values(node)) normalise30(v);
}

function examplesOf(p: Json, schema: Schema): unknown[] {
  const out: unknown[] = [];
  if (p.example !== undefined) out.push(p.example);
  if (isObj(p.examples)) for (const e of Object.values(p.examples)) if (isObj(e) && e.value !== undefined) out.push(e.value);
  if (Array.isArray(schema.examples)) out.push(...schema.examples);
  if (schema.example !== undefined) out.push(schema.example);
  if (schema.default !== undefined) out.push(schema.default);
  return out;
}

const PARAM_PLACES = new Set(["query", "header", "path", "cookie"]);

function operationOf(doc: Json, path: string, item: Json, op: Json): Operation {
  const id = typeof op.operationId === "string" ? op.operationId : `GET ${path}`;
  const byKey = new Map<string, Param>();
  // Path-level parameters first, then the operation's own, which override them (OpenAPI 3 § Path Item).
  for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const p = deref(doc, raw);
    if (!p || typeof p.name !== "string" || !PARAM_PLACES.has(String(p.in))) continue;
    const schema = inlineSchema(doc, p.schema);
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in as Param["in"],
      required: p.required === true || p.in === "path",
      schema,
      examples: examplesOf(p, schema),
    });
  }
  const security = Array.isArray(op.security) ? op.security : Array.isArray(doc.security) ? doc.security : [];
  // An empty requirement object ({}) means "no credentials is also fine" (OpenAPI 3 § Security Requirement).
  const secured = security.length > 0 && !security.some((s) => isObj(s) && Object.keys(s).length === 0);
  const responses: Record<string, ResponseSpec> = {};
  const base = `#/paths/${pointerSegment(path)}/get/responses`;
  for (const [status, raw] of Object.entries(isObj(op.responses) ? op.responses : {})) {
    let pointer = `${base}/${pointerSegment(status)}`;
    let r = raw as unknown;
    // A response given by reference: judge against the referenced object's own pointer.
    while (isObj(r) && typeof r.$ref === "string") {
      pointer = r.$ref;
      r = resolvePointer(doc, r.$ref);
    }
    if (!isObj(r)) throw new UsageError(`the OpenAPI document's response ${status} of ${id} does not resolve; fix the document`);
    const headers: HeaderSpec[] = [];
    for (const [name, h] of Object.entries(isObj(r.headers) ? r.headers : {})) {
      const spec = deref(doc, h);
      // Content-Type is described by `content`, never as a header (OpenAPI 3 § Response Object).
      if (!spec || name.toLowerCase() === "content-type") continue;
      headers.push({ name, required: spec.required === true, schema: inlineSchema(doc, spec.schema) });
    }
    const content: ResponseSpec["content"] = {};
    for (const [type, media] of Object.entries(isObj(r.content) ? r.content : {})) {
      const m = isObj(media) ? media : {};
      const at = `${pointer}/content/${pointerSegment(type)}`;
      content[type.toLowerCase()] = {
        ...(isObj(m.schema) ? { schema: `${at}/schema` } : {}),
        ...(isObj(m["x-line-schema"]) ? { lineSchema: `${at}/x-line-schema` } : {}),
      };
    }
    responses[status.toUpperCase()] = { status, headers, content };
  }
  return { id, method: "get", path, secured, params: [...byKey.values()], responses };
}

/** Parse and flatten a document; throws UsageError saying what to fix when it is not a usable OpenAPI 3 document. */
export function parseDocument(text: string, source: string): LoadedDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source} is not JSON (${(err as Error).message}); pass an OpenAPI 3 JSON document with --openapi FILE`);
  }
  if (!isObj(doc) || typeof doc.openapi !== "string" || !/^3\.[01]\./.test(doc.openapi)) {
    throw new UsageError(`${source} is not an OpenAPI 3.0/3.1 document (no "openapi": "3.x.y"); pass one with --openapi FILE`);
  }
  if (!isObj(doc.paths)) throw new UsageError(`${source} has no "paths": nothing to fuzz; pass a document that describes the routes`);
  if (doc.openapi.startsWith("3.0.")) normalise30(doc);
  const operations: Operation[] = [];
  const ignored: string[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const item = deref(doc, rawItem);
    if (!item) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!["get", "put", "post", "delete", "options", "head", "patch", "trace"].includes(method) || !isObj(op)) continue;
      if (method === "get") operations.push(operationOf(doc, path, item, op));
      else ignored.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return { source, version: doc.openapi, doc, operations, ignored };
}

/** The deployment's document: `--openapi FILE` when given, else GET /openapi.json (unmetered, not recorded). */
export async function loadDocument(client: Client, file?: string): Promise<LoadedDocument> {
  if (file) {
    const f = Bun.file(file);
    if (!(await f.exists())) throw new UsageError(`--openapi: no file ${file}`);
    return parseDocument(await f.text(), file);
  }
  const ex = await client.request("/openapi.json", { record: false });
  if (ex.status !== 200) {
    throw new UsageError(
      `GET ${client.baseUrl}/openapi.json answered ${ex.status}: the fuzzer needs the deployment's OpenAPI document; pass it with --openapi FILE`,
    );
  }
  return parseDocument(ex.body, `${client.baseUrl}/openapi.json`);
}
