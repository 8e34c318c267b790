/**
 * The query of a _plain_ request to the live endpoint or the demo: what the kit sends when a check
 * needs nothing but an ordinary answer (the first call of user A, the burst, the demo's 200s).
 * `docs/api.md § GET /v1/graph-stats/chart` names the parameters, but the interface leaves whether
 * each is required, and its default, to the implementation; one that requires `interval` answers a
 * bare `GET /v1/graph-stats/chart` with a 4xx. So the query is `--query` when given, else built
 * from the required parameters of the deployment's OpenAPI document (each one's example, default or
 * first enum value), else none at all.
 */
import { type LoadedDocument, parseDocument } from "../fuzz/document.ts";
import { encodeValue, serialise } from "../fuzz/values.ts";
import type { Client } from "./client.ts";
import type { Exchange } from "./types.ts";

/** Where a plain query came from: `--query`, the deployment's document, or nowhere (none sent). */
export type QuerySource = "option" | "document" | "none";

export interface PlainQuery {
  /** Exactly what follows `?` (empty: no query). */
  query: string;
  source: QuerySource;
  /** The source in words, for reasons: `--query`, `the required parameters of http://…/openapi.json`. */
  from: string;
  /** Required parameters the document gives no value for (no example, default or enum): left out. */
  unfilled: string[];
}

export const NO_QUERY: PlainQuery = { query: "", source: "none", from: "no query (no --query, no OpenAPI document)", unfilled: [] };

/** `--query` as given, without a leading `?`. */
export function optionQuery(query: string): PlainQuery {
  return { query: query.replace(/^\?/, ""), source: "option", from: "--query", unfilled: [] };
}

/** The value the document offers for a parameter: its example or default, else its first enum (or const) value. */
function documentedValue(examples: unknown[], schema: Record<string, unknown>): unknown {
  if (examples.length) return examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  return schema.const;
}

/** The plain query for GET `path` from the document's required query parameters; NO_QUERY when it does not describe `path`. */
export function queryFromDocument(loaded: LoadedDocument, path: string): PlainQuery {
  const op = loaded.operations.find((o) => o.path === path);
  if (!op) return { ...NO_QUERY, from: `no query (${loaded.source} does not describe GET ${path})` };
  const parts: string[] = [];
  const unfilled: string[] = [];
  for (const p of op.params.filter((x) => x.in === "query" && x.required)) {
    const v = documentedValue(p.examples, p.schema);
    if (v === undefined || v === null) unfilled.push(p.name);
    else parts.push(`${encodeValue(p.name)}=${encodeValue(serialise(v))}`);
  }
  return { query: parts.join("&"), source: "document", from: `the required parameters of ${loaded.source}`, unfilled };
}

/** `query` with `name=value` in place of any `name` it had (the rolling request: the plain query and `periods=3`). */
export function withParam(query: string, name: string, value: string): string {
  const kept = query.split("&").filter((part) => part !== "" && part.split("=")[0] !== name);
  return [...kept, `${name}=${value}`].join("&");
}

/** The deployment's document for the plain query: `--openapi FILE`, else GET /openapi.json; undefined when there is none usable. */
export async function plainDocument(client: Client, file?: string): Promise<LoadedDocument | undefined> {
  try {
    if (file) return parseDocument(await Bun.file(file).text(), file);
    const ex = await client.request("/openapi.json", { record: false });
    return ex.status === 200 ? parseDocument(ex.body, `${client.baseUrl}/openapi.json`) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a plain request was refused, when its answer is a 4xx other than 401 and 429 (those are the
 * token's and the limits' refusals, judged by their own checks); undefined otherwise. `vouched`
 * tells whether the query was given (`--query`) or built from the implementation's own document:
 * then the refusal is the implementation's, else the kit simply lacks the parameters it requires.
 */
export function queryRefusal(ex: Exchange, endpoint: string, plain: PlainQuery): { reason: string; vouched: boolean } | undefined {
  if (ex.status < 400 || ex.status >= 500 || ex.status === 401 || ex.status === 429) return undefined;
  const errors = (ex.json as { errors?: { code?: unknown; message?: unknown }[] } | undefined)?.errors;
  const first = Array.isArray(errors) ? errors[0] : undefined;
  const code = typeof first?.code === "string" ? ` ${first.code}` : "";
  const message = typeof first?.message === "string" ? ` (${JSON.stringify(first.message.slice(0, 120))})` : "";
  const said = `${endpoint} answered ${ex.status}${code} to \`GET ${ex.path}\`${message}`;
  if (plain.source === "option") return { reason: `${said}, the query given with --query: it must be answered 200`, vouched: true };
  if (plain.source === "document" && !plain.unfilled.length)
    return { reason: `${said}, a query built from ${plain.from}: it must be answered 200 (or pass --query)`, vouched: true };
  const lacking = plain.unfilled.length ? `; the document requires ${plain.unfilled.join(", ")} but gives no example, default or enum` : "";
  return { reason: `${said}: pass --query with the parameters it requires${lacking}`, vouched: false };
}
