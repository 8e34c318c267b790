/**
 * The comparison baseline for `/health` and `/v1/demo/chart`: a bare Bun.serve returning the same
 * bytes and headers our server returned, with none of our work (routing, envelope, logging).
 * `--stamped`: the same, but each answer carries a new request id and the time (meta.request_id,
 * meta.generated_at, X-Request-Id), the least any server must do per request for these bodies.
 * Usage: bun bench/bare-server.ts <captured.json> [--stamped]  (prints {"port":N} when listening)
 */
type Captured = Record<string, { body: string; headers: Record<string, string> }>;
const captured = JSON.parse(await Bun.file(process.argv[2]!).text()) as Captured;
const stamped = process.argv.includes("--stamped");

/** The body cut around meta's time and request id: [before time, between, after id]. */
function cut(body: string): [string, string, string] {
  const at = body.lastIndexOf('"generated_at":"') + '"generated_at":"'.length;
  const id = body.indexOf('"request_id":"', at) + '"request_id":"'.length;
  return [body.slice(0, at), body.slice(body.indexOf('"', at), id), body.slice(body.indexOf('"', id))];
}
const parts = Object.fromEntries(Object.entries(captured).map(([path, c]) => [path, cut(c.body)]));

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    const hit = captured[path];
    if (!hit) return new Response("not found", { status: 404 });
    if (!stamped) return new Response(hit.body, { headers: hit.headers });
    const [a, b, c] = parts[path]!;
    const id = crypto.randomUUID();
    return new Response(`${a}${new Date().toISOString()}${b}${id}${c}`, { headers: { ...hit.headers, "x-request-id": id } });
  },
});
console.log(JSON.stringify({ port: server.port }));
export {};
