/**
 * The compiled server binary for the tests that run it: $GRAPH_STATS_BIN when set (CI builds it
 * first with `npm run build`), else built once and cached in the system's temp folder (not the
 * test process's own, temp-folder.ts) under a hash of everything that goes into it, so one test
 * run (and the next, unchanged) compiles it once.
 * A lock folder makes concurrent test processes wait for one build instead of racing.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { compile, TARGETS } from "../../src/build-targets.ts";
import { cachedBuild, REPO_ROOT, treeHash } from "./build-cache.ts";

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
  const dir = await cachedBuild("graph-stats-test-bin-", sourceHash(), (into) => compile(TARGETS[0]!, join(into, "graph-stats")));
  return join(dir, "graph-stats");
}
