/** Evidence of a failure as plain data: request, status, the headers that matter, a body excerpt. */
import type { Exchange } from "../lib/types.ts";

const SHOWN_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-daily-limit",
  "x-ratelimit-daily-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "ratelimit",
  "ratelimit-policy",
  "www-authenticate",
  "content-type",
  "cache-control",
  "allow",
];
const EXCERPT = 400;

export interface EvidenceView {
  request: string;
  requestHeaders: Record<string, string>;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The parts of an exchange a reader needs to see why a check failed. */
export function evidenceView(ex: Exchange): EvidenceView {
  const headers: Record<string, string> = {};
  for (const name of SHOWN_HEADERS) {
    const v = ex.headers.get(name);
    if (v !== null) headers[name] = v;
  }
  const body = ex.body.length > EXCERPT ? `${ex.body.slice(0, EXCERPT)}… (${ex.body.length} bytes)` : ex.body;
  return { request: `${ex.method} ${ex.url}`, requestHeaders: ex.requestHeaders, status: ex.status, headers, body };
}

/** Indented text lines for one exchange. */
export function evidenceText(ex: Exchange, indent = "      "): string {
  const v = evidenceView(ex);
  const lines = [`${indent}> ${v.request}`];
  for (const [k, val] of Object.entries(v.requestHeaders)) lines.push(`${indent}> ${k}: ${val}`);
  lines.push(`${indent}< ${v.status}`);
  for (const [k, val] of Object.entries(v.headers)) lines.push(`${indent}< ${k}: ${val}`);
  lines.push(`${indent}< ${v.body.replace(/\s*\n\s*/g, " ")}`);
  return lines.join("\n");
}
