/**
 * The compiled server binary for the tests that run it: $GRAPH_STATS_BIN when set (CI builds it
 * first with `npm run build`), else built once and cached in the system's temp folder (not the
 * test process's own, temp-folder.ts) under a hash of everything that goes into it, so one test
 * run (and the next, unchanged) compiles it once.
 * A lock folder makes concurrent test processes wait for one build instead of racing.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { compile, TARGETS } from "../../src/build-targets.ts";
import { REPO_ROOT, treeHash } from "./tree-hash.ts";

/** The system's temp folder, which test/support/temp-folder.ts keeps in this variable for us. */
const SYSTEM_TMPDIR = process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir();

/** A lock older than this belongs to a build that died; the next caller takes over. */
const STALE_LOCK_MS = 5 * 60_000;
/** Binaries of other sources older than this are removed when a new one is built (each is ~110 MB). */
const OLD_BUILD_MS = 60 * 60_000;
const PREFIX = "graph-stats-test-bin-";

let pending: Promise<string> | null = null;

/** Path of a server binary built from the current sources. */
export function serverBinary(): Promise<string> {
  const given = process.env.GRAPH_STATS_BIN;
  if (given && existsSync(given)) return Promise.resolve(resolve(given));
  pending ??= buildCached();
  return pending;
}

/** A hash of what the binary is compiled from (src/ but its tests, db/, package.json, package-lock.json, the Bun version). */
export function sourceHash(): string {
  return treeHash(["src", "db", "package.json", "package-lock.json"].map((part) => join(REPO_ROOT, part)));
}

async function buildCached(): Promise<string> {
  const dir = join(SYSTEM_TMPDIR, `${PREFIX}${sourceHash()}`);
  const bin = join(dir, "graph-stats");
  const done = join(dir, "built");
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 10 * 60_000;
  while (!existsSync(done)) {
    if (Date.now() > deadline)
      throw new Error(`waited 10 minutes for another process to build ${bin}; remove ${lock} if no test run is building`);
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
      mkdirSync(dir, { recursive: true });
      const partial = `${bin}.${process.pid}`;
      await compile(TARGETS[0]!, partial);
      renameSync(partial, bin);
      writeFileSync(done, new Date().toISOString());
      removeOldBuilds(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return bin;
}

function removeOldBuilds(keep: string): void {
  for (const entry of readdirSync(SYSTEM_TMPDIR)) {
    const dir = join(SYSTEM_TMPDIR, entry);
    if (!entry.startsWith(PREFIX) || entry.endsWith(".lock") || dir === keep) continue;
    const built = statSync(join(dir, "built"), { throwIfNoEntry: false });
    if (built && Date.now() - built.mtimeMs > OLD_BUILD_MS) rmSync(dir, { recursive: true, force: true });
  }
}
