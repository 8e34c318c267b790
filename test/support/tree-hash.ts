/** The hash that keys the test caches (the compiled binary, the PostgreSQL cluster) on what they are built from. */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dir, "../..");

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
