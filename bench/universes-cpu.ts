/**
 * Server CPU per request of GET /v1/universes and /v1/universes/sample (and their 304), in process
 * through the app's handler over the sample database: `bun bench/universes-cpu.ts [N]`. A quick
 * measurement for docs/api.md, not a test: the user CPU the process spends per request, averaged.
 */
import { startHarness } from "../test/support/http/harness.ts";

const n = Number(process.argv[2] ?? 2000);
const h = await startHarness({}, { start: new Date().toISOString() });
const token = await h.token("bench");
try {
  for (const path of ["/v1/universes", "/v1/universes/sample"]) {
    const etag = (await h.handle(path, { token })).headers.get("etag")!;
    for (const [label, headers] of [
      ["200", {}],
      ["304", { "If-None-Match": etag }],
    ] as const) {
      for (let i = 0; i < 200; i++) await (await h.handle(path, { token, headers })).arrayBuffer();
      const t0 = process.cpuUsage();
      for (let i = 0; i < n; i++) await (await h.handle(path, { token, headers })).arrayBuffer();
      const d = process.cpuUsage(t0);
      console.log(`${path} ${label}: ${((d.user + d.system) / n).toFixed(1)} µs CPU per request (${n} requests)`);
    }
  }
} finally {
  await h.stop();
}
