/**
 * Test caches that outlive a run, keyed on what they are built from (the compiled binary, the
 * PostgreSQL cluster with its templates): a folder in the system's temp folder, built by one
 * process while concurrent ones wait on a lock folder, and reused while the sources are unchanged.
 */
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "../..");
/** The system's temp folder (test/support/temp-folder.ts keeps it here), not the test process's own. */
const SYSTEM_TMPDIR = process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir();
/** A lock older than this belongs to a build that died; the next caller takes over. */
const STALE_LOCK_MS = 5 * 60_000;
/** Caches of the same kind and other sources older than this are removed when a new one is built (110-160 MB each). */
const OLD_CACHE_MS = 60 * 60_000;

/** The Bun version and every file under `paths` but tests, by path inside the repo and content; paths that do not exist are skipped. */
export function treeHash(paths: readonly string[]): string {
  const hash = createHash("sha256").update(Bun.version);
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(path, entry));
    } else if (!path.endsWith(".test.ts")) {
      hash.update(path.startsWith(REPO_ROOT) ? path.slice(REPO_ROOT.length) : path).update(readFileSync(path));
    }
  };
  for (const path of paths) if (existsSync(path)) add(path);
  return hash.digest("hex").slice(0, 16);
}

/**
 * The folder `${prefix}${hash}` in the system's temp folder once `build` has filled it: built here
 * (into a fresh folder, renamed into place when done) unless another process built it or is building it.
 */
export async function cachedBuild(prefix: string, hash: string, build: (into: string) => Promise<void>): Promise<string> {
  const dir = join(SYSTEM_TMPDIR, `${prefix}${hash}`);
  const done = join(dir, "built");
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 10 * 60_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline)
      throw new Error(`waited 10 minutes for another process to build ${dir}; remove ${lock} if no test run is building`);
    try {
      mkdirSync(lock);
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await Bun.sleep(250);
      continue;
    }
    try {
      if (existsSync(done)) break;
      const partial = `${dir}.${process.pid}`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial);
      // As root the embedded PostgreSQL runs as `postgres`, which must reach a cluster built in here.
      chmodSync(partial, 0o755);
      await build(partial);
      writeFileSync(join(partial, "built"), new Date().toISOString());
      rmSync(dir, { recursive: true, force: true }); // not built (we hold the lock): a leftover
      renameSync(partial, dir);
      removeOld(prefix, dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

function removeOld(prefix: string, keep: string): void {
  for (const entry of readdirSync(SYSTEM_TMPDIR)) {
    const dir = join(SYSTEM_TMPDIR, entry);
    if (!entry.startsWith(prefix) || entry.endsWith(".lock") || dir === keep) continue;
    const built = statSync(join(dir, "built"), { throwIfNoEntry: false });
    if (built && Date.now() - built.mtimeMs > OLD_CACHE_MS) rmSync(dir, { recursive: true, force: true });
  }
}
