/**
 * The billing export over a generated year of a busy log (SQLite): N counted rows spread over 365
 * days, exported by the CLI (`usage export`, a process of its own, stdout to /dev/null). Prints
 * rows/s and the process's peak RSS. `npx bun bench/usage-export.bench.ts [ROWS]` (default 2,000,000).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../db/sqlite/open.ts";

const rows = Number(process.argv[2] ?? 2_000_000);
const db = join(mkdtempSync(join(tmpdir(), "gs-export-bench-")), "bench.sqlite");
const opened = openDatabase(db);
const start = Date.parse("2025-11-01T00:00:00Z");
const step = (365 * 86_400_000) / rows;
const insert = opened.sqlite.prepare(
  "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, params, cost_ms, plan) VALUES (?, ?, ?, 200, 3.2, 1, 'lookback=60', 41.5, 'team')",
);
opened.sqlite.transaction(() => {
  for (let i = 0; i < rows; i++) insert.run(crypto.randomUUID(), `user-${i % 10_000}`, Math.floor(start + i * step));
})();
opened.sqlite.close();

for (const format of ["cloudevents", "csv"]) {
  const t0 = performance.now();
  const p = Bun.spawn(
    ["/usr/bin/time", "-f", "%M", "bun", "src/cli.ts", "usage", "export", "--since", "2025-11-01", "--format", format, "--db", db],
    {
      stdout: "ignore",
      stderr: "pipe",
      env: { ...process.env, PATH: `${join(import.meta.dir, "../node_modules/.bin")}:${process.env.PATH}` },
    },
  );
  const code = await p.exited;
  const seconds = (performance.now() - t0) / 1000;
  const peakKb = Number((await new Response(p.stderr).text()).trim().split("\n").at(-1));
  console.log(
    `${format}: exit ${code}, ${rows} rows in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds)} rows/s, peak RSS ${(peakKb / 1024).toFixed(0)} MB`,
  );
}
