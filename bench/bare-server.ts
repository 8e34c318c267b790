/**
 * The comparison baselines for `/health` and `/v1/demo/chart`: a bare Bun.serve returning the same
 * bytes and headers our server returned, with none of our work (routing, envelope, CORS, metrics).
 * `--stamped`: each answer carries a new request id and the time (meta.request_id,
 * meta.generated_at, X-Request-Id), written into one buffer per path the cheapest way we know (as
 * our demo route does). `--logged <file>`: stamped, plus the access line every request needs
 * (README.md § Operations) from our own logger, batched into that file: the least any server
 * answering these bodies must do per request. Usage: bun bench/bare-server.ts <captured.json>
 * [--stamped | --logged <file>]  (prints {"port":N})
 */
import { openSync } from "node:fs";
import { createLogger } from "../src/logger.ts";

type Captured = Record<string, { body: string; headers: Record<string, string> }>;
const captured = JSON.parse(await Bun.file(process.argv[2]!).text()) as Captured;
const logAt = process.argv.indexOf("--logged");
const logger = logAt > 0 ? createLogger("info", openSync(process.argv[logAt + 1]!, "a"), true) : null;
const stamped = logger !== null || process.argv.includes("--stamped");

/** The body as a buffer with room for the time and id after its head, and its tail kept aside. */
interface Template {
  buf: Buffer;
  headLength: number;
  tail: Buffer;
}
function template(body: string): Template {
  const at = body.lastIndexOf('"generated_at":"') + '"generated_at":"'.length;
  const idEnd = body.indexOf('"', body.indexOf('"request_id":"', at) + '"request_id":"'.length);
  const head = Buffer.from(body.slice(0, at));
  const buf = Buffer.alloc(head.length + 128 + body.length - idEnd);
  buf.set(head, 0);
  return { buf, headLength: head.length, tail: Buffer.from(body.slice(idEnd)) };
}
const templates = Object.fromEntries(Object.entries(captured).map(([path, c]) => [path, template(c.body)]));

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const start = performance.now();
    const url = req.url;
    const from = url.indexOf("/", url.indexOf("//") + 2);
    const q = url.indexOf("?", from);
    const path = q < 0 ? url.slice(from) : url.slice(from, q);
    const hit = captured[path];
    if (!hit) return new Response("not found", { status: 404 });
    if (!stamped) return new Response(hit.body, { headers: hit.headers });
    const t = templates[path]!;
    const id = crypto.randomUUID();
    const end = t.headLength + t.buf.write(`${new Date().toISOString()}","request_id":"${id}`, t.headLength, "latin1");
    t.buf.set(t.tail, end);
    const res = new Response(t.buf.subarray(0, end + t.tail.length), { headers: { ...hit.headers, "x-request-id": id } });
    logger?.request(id, req.method, path, 200, Math.round((performance.now() - start) * 1000), null);
    return res;
  },
});
console.log(JSON.stringify({ port: server.port }));
