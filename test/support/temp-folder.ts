/**
 * Preloaded by `bun test` (bunfig.toml): every temporary file of this test process, and of the
 * processes it starts, goes into one folder of its own (TMPDIR), removed once the process is gone.
 * Tests make hundreds of databases, clusters and builds in the temp folder; left there, a run
 * left about 6 GB behind, and a day of runs filled a 60 GB disk until SQLite answered SQLITE_FULL.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The temp folder this process was started with: caches that outlive a run (binary.ts) stay there. */
const SYSTEM_TMPDIR = process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir();

/** Seconds the watcher waits after the process is gone (its PostgreSQL's own watcher stops the server first); a test sets 0. */
const GRACE = Number(process.env.GRAPH_STATS_TEST_TMPDIR_GRACE ?? 6);

if (process.env.GRAPH_STATS_TEST_TMPDIR === undefined) {
  const own = mkdtempSync(join(SYSTEM_TMPDIR, "graph-stats-test-run-"));
  // As root the embedded PostgreSQL runs as `postgres`, which must reach its data directory in here.
  chmodSync(own, 0o755);
  process.env.GRAPH_STATS_SYSTEM_TMPDIR = SYSTEM_TMPDIR;
  process.env.GRAPH_STATS_TEST_TMPDIR = own;
  process.env.TMPDIR = own;
  // bun test does not always run exit hooks, and a killed process runs none: a detached shell removes
  // the folder once this process is gone, after test/support/postgres.ts's own watcher stopped its server.
  // Folders kept elsewhere (removeWithRun) go first.
  const elsewhere = `for l in '${own}'/.elsewhere-*; do [ -L "$l" ] && rm -rf "$(readlink "$l")"; done`;
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; sleep ${GRACE}; ${elsewhere}; rm -rf '${own}'`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

let elsewhere = 0;

/**
 * Removes `path`, a folder outside the temp folder (a PostgreSQL cluster in /dev/shm), with the
 * test process's temp folder once the process is gone, killed ones included.
 */
export function removeWithRun(path: string): void {
  const own = process.env.GRAPH_STATS_TEST_TMPDIR;
  if (own) symlinkSync(path, join(own, `.elsewhere-${process.pid}-${++elsewhere}`));
}
