/**
 * The heavy live path (issue #20), against the real server process on a generated universe of
 * 500 symbols × 1,300 daily bars:
 *  1. sixteen users each send the heaviest request the default budget admits at once: how many are
 *     answered 200 or refused 503 before admission, how many were charged, and the server's peak RSS;
 *  2. /health's worst latency while cached 500 × 100 csv/ndjson exports and large gzip answers are
 *     served, polled every 20 ms.
 * Run: npx bun bench/heavy-path.bench.ts [--users 16]
 */
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { writeBigUniverse } from "../test/support/big-universe.ts";
import { SECRET, sampleDb } from "../test/support/http/harness.ts";
import { spawnServer } from "../test/support/http/process.ts";

// --bin: another build of the server to run instead (an earlier commit's, for before/after figures).
// --skip-exports: only the users' run (an earlier build may still be computing their dropped jobs after it).
const { values } = parseArgs({
  options: { users: { type: "string", default: "16" }, bin: { type: "string" }, "skip-exports": { type: "boolean", default: false } },
});
const USERS = Number(values.users);
const db = sampleDb();
const t0 = performance.now();
writeBigUniverse(db, "big", 500, 1300);
console.error(`wrote 500 × 1,300 bars in ${Math.round(performance.now() - t0)} ms`);

const server = await spawnServer(
  [
    "--port",
    "0",
    "--db",
    db,
    "--jwt-secret",
    SECRET,
    "--no-sample",
    "--rate-per-minute",
    "1000",
    "--rate-per-day",
    "100000",
    "--log-level",
    "warn",
  ],
  { timeoutMs: 60_000, bin: values.bin, source: true },
);
const pid = server.proc.pid;
const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
const token = async (user: string) => (await mintToken({ secret: SECRET, userId: user, ttlSeconds: 3600, clock: systemClock })).token;
const live = (q: string, user: string, headers: Record<string, string> = {}) =>
  token(user).then((t) =>
    fetch(`${server.base}/v1/graph-stats/chart?universe=big&${q}`, { headers: { Authorization: `Bearer ${t}`, ...headers } }),
  );

// 1. Sixteen users' heaviest admissible requests at once (each a different lookback: nothing shared).
const HEAVY = "periods=100&graph_method=knn&knn_k=50&include_graph=false";
await live("periods=1", "warm");
const rssBefore = kb("VmRSS");
const started = performance.now();
const statuses = await Promise.all(
  Array.from({ length: USERS }, async (_, i) => {
    try {
      const res = await live(`${HEAVY}&lookback=${200 + i}`, `user-${i}`);
      const text = await res.text();
      return { status: res.status, ms: performance.now() - started, message: res.status === 200 ? "" : JSON.parse(text).errors[0].message };
    } catch (err) {
      // The connection closed without an answer (status 0).
      return { status: 0, ms: performance.now() - started, message: (err as Error).message };
    }
  }),
);
const wallS = (performance.now() - started) / 1000;
const audit = new Database(db, { readonly: true });
// Rows still open belong to computations that go on after their connection closed: wait for them
// (up to two minutes), so the charges are final and the peak includes them.
const open = audit.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM request_log WHERE user_id LIKE 'user-%' AND status IS NULL");
for (let i = 0; i < 240 && open.get()!.n > 0; i++) await Bun.sleep(500);
const peakMb = kb("VmHWM") / 1024;
const rows = audit
  .query<{ status: number; counted: number; n: number }, []>(
    "SELECT status, counted, COUNT(*) AS n FROM request_log WHERE user_id LIKE 'user-%' GROUP BY status, counted ORDER BY status",
  )
  .all();
audit.close();
const count = (s: number) => statuses.filter((x) => x.status === s).length;
const answered = statuses.filter((x) => x.status === 200).map((x) => x.ms / 1000);

if (values["skip-exports"]) {
  await server.stop();
  console.log(
    `${count(200)} answered 200, ${count(503)} 503, ${count(0)} closed without an answer; audit ${JSON.stringify(rows)}; peak RSS ${peakMb.toFixed(0)} MB`,
  );
  process.exit(0);
}

// 2. /health during large cached exports and gzip answers.
// 90 as-ofs × 500 symbols plus the latest graph's 5,000 edges: the 50,000-row cap exactly.
const EXPORT = "periods=90&graph_method=knn&knn_k=10&include_graph=true&lookback=120";
for (const f of ["json", "csv", "ndjson"]) {
  const res = await live(`${EXPORT}&format=${f}`, "exporter"); // computed once, csv and ndjson rendered from it, all cached
  if (res.status !== 200) throw new Error(`export ${f} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}
const sizes: Record<string, number> = {};
let stop = false;
// The downloads run in curl processes, not here: reading and decompressing 10–25 MB bodies on this
// process's event loop would delay its own /health polls and be counted against the server.
const exportToken = await token("exporter");
const exporters = Array.from({ length: 4 }, async (_, i) => {
  const f = ["csv", "ndjson", "json", "csv"][i]!;
  const gzip = i % 2 === 1;
  while (!stop) {
    const curl = Bun.spawn(
      [
        "curl",
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code} %{size_download}",
        "-H",
        `Authorization: Bearer ${exportToken}`,
        ...(gzip ? ["-H", "Accept-Encoding: gzip"] : []),
        `${server.base}/v1/graph-stats/chart?universe=big&${EXPORT}&format=${f}`,
      ],
      { stdout: "pipe" },
    );
    const [code, bytes] = (await new Response(curl.stdout).text()).split(" ");
    if (code !== "200") throw new Error(`export ${f} answered ${code}`);
    sizes[`${f}${gzip ? " gzip" : ""}`] = Number(bytes);
  }
});
const lat: number[] = [];
const pollEnd = performance.now() + 8000;
while (performance.now() < pollEnd) {
  const t = performance.now();
  await (await fetch(`${server.base}/health`)).text();
  lat.push(performance.now() - t);
  await Bun.sleep(20);
}
stop = true;
await Promise.all(exporters);
await server.stop();
lat.sort((a, b) => a - b);

console.log(
  [
    "## The heavy path",
    "",
    "Command: `npx bun bench/heavy-path.bench.ts` — the server process (`serve`, defaults: cost budget 10,000 ms of one core, " +
      "admitted work 40,000 ms and 1,024 MiB, compute threads = cores, 1 to 8) on a generated universe of 500 symbols × 1,300 daily bars.",
    "",
    `**${USERS} users at once**, each \`${HEAVY}\` (a different lookback each, so nothing is shared or cached):`,
    "",
    "| answered 200 | refused 503 before admission | closed without an answer | audit rows (status × counted) | peak RSS | RSS before | wall |",
    "|---|---|---|---|---|---|---|",
    `| ${count(200)} (last after ${Math.max(...answered, 0).toFixed(1)} s) | ${count(503)} | ${count(0)} | ` +
      `${rows.map((r) => `${r.status}×${r.counted}: ${r.n}`).join(", ")} | ${peakMb.toFixed(0)} MB | ${(rssBefore / 1024).toFixed(0)} MB | ${wallS.toFixed(1)} s |`,
    "",
    `A 503's message: "${statuses.find((x) => x.status === 503)?.message ?? "(none)"}"`,
    "",
    `**/health while 4 curl processes download cached exports** (\`${EXPORT}\`; bytes sent per answer: ${Object.entries(sizes)
      .map(([k, v]) => `${k} ${(v / 2 ** 20).toFixed(1)} MB`)
      .join(", ")}), polled every 20 ms for 8 s: ` +
      `${lat.length} polls, p50 ${lat[Math.floor(lat.length / 2)]!.toFixed(1)} ms, p99 ${lat[Math.floor(lat.length * 0.99)]!.toFixed(1)} ms, ` +
      `max ${lat[lat.length - 1]!.toFixed(1)} ms.`,
  ].join("\n"),
);
process.exit(0);
