/**
 * Preloaded by `bun test` (bunfig.toml): every temporary file of this test process, and of the
 * processes it starts, goes into one folder of its own (TMPDIR), removed once the process is gone.
 * Tests make hundreds of databases, clusters and builds in the temp folder; left there, a run
 * left about 6 GB behind, and a day of runs filled a 60 GB disk until SQLite answered SQLITE_FULL.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The temp folder this process was started with: caches that outlive a run (binary.ts) stay there. */
const SYSTEM_TMPDIR = process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir();

if (process.env.GRAPH_STATS_TEST_TMPDIR === undefined) {
  const own = mkdtempSync(join(SYSTEM_TMPDIR, "graph-stats-test-run-"));
  // As root the embedded PostgreSQL runs as `postgres`, which must reach its data directory in here.
  chmodSync(own, 0o755);
  process.env.GRAPH_STATS_SYSTEM_TMPDIR = SYSTEM_TMPDIR;
  process.env.GRAPH_STATS_TEST_TMPDIR = own;
  process.env.TMPDIR = own;
  // bun test does not always run exit hooks, and a killed process runs none: a detached shell removes
  // the folder once this process is gone, after test/support/postgres.ts's own watcher stopped its server.
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; sleep 6; rm -rf '${own}'`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}
