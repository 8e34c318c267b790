/**
 * `npm run bench`: runs every benchmark in turn (engine vs networkx, research features vs their
 * Python references, market data, metering, HTTP) and writes
 * their markdown into docs/benchmarks.md, replacing the whole file: each target, how it is measured
 * and its latest figure are written by hand in docs/performance.md instead. Each benchmark compares side by side
 * within its own run, so the ratios hold even on a shared, noisy machine.
 * Run: npm run bench [-- --quick]   (--quick: shorter HTTP runs)
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpus } from "node:os";

const root = resolve(import.meta.dir, "..");
const quick = process.argv.includes("--quick");

async function section(title: string, args: string[]): Promise<string> {
  console.error(`running ${title}…`);
  const proc = Bun.spawn([process.execPath, ...args], { cwd: root, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  return code === 0 ? out.trim() : `${title}: failed with exit code ${code}\n\n${out.trim()}`;
}

const parts = [
  await section("engine", ["bench/engine.bench.ts"]),
  await section("research", ["bench/research.bench.ts", ...(quick ? ["--rolling-rounds", "1", "--parts-rounds", "3"] : [])]),
  // Issue #20: the cost model's fit over the parameter space, and the heavy live path end to end.
  await section("research round 2: PMFG, Kendall, distance correlation", ["bench/pmfg-codependence.bench.ts"]),
  await section("research round 2: hierarchies and HRP", ["bench/hierarchy-hrp.bench.ts"]),
  // Signal or noise: bootstrap against its Python reference, and what the filters add to a rolling request.
  await section("research round 3: signal or noise", ["bench/signal-noise.bench.ts", ...(quick ? ["--rounds", "1"] : [])]),
  await section("correlation stage", ["bench/correlation.bench.ts"]),
  await section("cost model", ["bench/cost-model.bench.ts", "--shapes", quick ? "120" : "300"]),
  await section("cost model against the grid", ["bench/cost-grid.bench.ts"]),
  // Issue #41: loading stored history, priced by what a request reads (the real server side by side with --before).
  await section("loading stored history", ["bench/series-load.bench.ts"]),
  await section("heavy path", ["bench/heavy-path.bench.ts"]),
  await section("a 2,000-symbol universe", ["bench/big-universe.bench.ts", "--rounds", quick ? "1" : "3"]),
  await section("market", ["bench/market.bench.ts"]),
  // Import formats: a 1 GiB file as CSV, .csv.gz and Parquet — rows/s and peak RSS (about 12 minutes; --quick: 128 MiB).
  await section("importing a large file", ["bench/import-files.bench.ts", "--mb", quick ? "128" : "1024"]),
  await section("metering", ["bench/metering.bench.ts"]),
  // Issue #12 item 7: what another process's write lock does to /health and refusals (the test asserts only their order).
  await section("write lock held elsewhere", ["bench/write-lock-stall.bench.ts"]),
  await section("http", ["bench/http.bench.ts", "--seconds", quick ? "3" : "6"]),
  // Issue #22: the cached live answer against its floor on both databases, and where its CPU goes.
  await section("live endpoint against its floor", ["bench/live-cpu.ts", "--seconds", quick ? "3" : "5"]),
  await section("live endpoint ablation", ["bench/live-ablation.ts"]),
  // Issue #21: what a process start costs, from source and compiled (the build uses bytecode for it).
  await section("start-up", ["bench/start-up.bench.ts"]),
  // Clients: the Python and TypeScript clients beside a bare GET, and a notebook re-run with its cache.
  await section("clients", ["bench/clients.bench.ts", "--rounds", quick ? "3" : "7"]),
  // PostgreSQL (issue #14): a real server on loopback, started by the benches themselves.
  [
    "## PostgreSQL",
    await section("postgresql: metering transaction", ["bench/pg-driver.bench.ts"]),
    await section("postgresql: instances", ["bench/pg-instances.bench.ts", "--seconds", quick ? "3" : "5"]),
  ].join("\n\n"),
];

const doc = `# Benchmarks

Reproduce with \`npm run bench\` (all of it, about 21 minutes) or one at a time:
\`npx bun bench/engine.bench.ts\`, \`npx bun bench/research.bench.ts\`, \`npx bun bench/signal-noise.bench.ts\`, \`npx bun bench/correlation.bench.ts\`, \`npx bun bench/cost-model.bench.ts\`, \`npx bun bench/cost-grid.bench.ts\`, \`npx bun bench/series-load.bench.ts\`, \`npx bun bench/heavy-path.bench.ts\`, \`npx bun bench/import-files.bench.ts\`, \`npx bun bench/metering.bench.ts\`, \`npx bun bench/write-lock-stall.bench.ts\`, \`npx bun bench/http.bench.ts\`, \`npx bun bench/live-cpu.ts\`, \`npx bun bench/live-ablation.ts\`, \`npx bun bench/pg-driver.bench.ts\`, \`npx bun bench/pg-instances.bench.ts\`, \`npx bun bench/clients.bench.ts\`.
Machine of this run: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}.
These machines are shared and noisy: read the ratios measured side by side in one run, not the absolute times.
\`npm run bench\` rewrites this whole file; each target, how it is measured and its latest figure are in docs/performance.md.

${parts.join("\n\n")}
`;
writeFileSync(join(root, "docs/benchmarks.md"), doc);
console.log(doc);
