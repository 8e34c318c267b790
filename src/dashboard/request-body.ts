/** The bodies the dashboard's POSTs carry: bounded in bytes, parsed into what the routes need. */
import { HttpError } from "../http/http-error.ts";

/** A JSON body of the dashboard's query action; the live endpoint's query string is capped alike. */
const MAX_BODY_BYTES = 8 * 1024;

/** `{ "params": { "lookback": 60, … } }` → the live endpoint's query string (values as given). */
export function queryFromBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, "BAD_REQUEST", 'the body must be JSON: { "params": { "name": value, … } }');
  }
  const params = (body as { params?: unknown })?.params;
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new HttpError(400, "BAD_REQUEST", 'the body must be JSON: { "params": { "name": value, … } }');
  }
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    if (!["string", "number", "boolean"].includes(typeof v))
      throw new HttpError(400, "BAD_REQUEST", `parameter ${k.slice(0, 50)} must be a string, number or boolean`);
    q.append(k, String(v));
  }
  return q.toString();
}

/** The body as text, read chunk by chunk and refused past the cap (a chunked body declares no length). */
export async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES)
    throw new HttpError(400, "BAD_REQUEST", `request body is ${declared} bytes; at most ${MAX_BODY_BYTES} are allowed`);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of request.body) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw new HttpError(400, "BAD_REQUEST", `request body is over ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // The client stopped sending before the body's end: its mistake (400), not a server fault.
    throw new HttpError(400, "BAD_REQUEST", "the request body ended before its declared length; send it again");
  }
  return Buffer.concat(chunks).toString("utf8");
}
