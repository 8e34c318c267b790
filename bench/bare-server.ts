/**
 * The comparison baseline for `/health` and `/v1/demo/chart`: a bare Bun.serve returning the same
 * bytes and headers our server returned, with none of our work (routing, envelope, logging).
 * Usage: bun bench/bare-server.ts <captured.json>  (prints {"port":N} when listening)
 */
const captured = JSON.parse(await Bun.file(process.argv[2]!).text()) as Record<string, { body: string; headers: Record<string, string> }>;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const hit = captured[new URL(req.url).pathname];
    return hit ? new Response(hit.body, { headers: hit.headers }) : new Response("not found", { status: 404 });
  },
});
console.log(JSON.stringify({ port: server.port }));
export {};
