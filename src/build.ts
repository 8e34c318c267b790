/**
 * `npm run build`: the single executables. `dist/graph-stats` embeds the migrations (imported as
 * text) and the sample generator (code), so a copy alone in an empty directory serves, imports
 * and mints tokens. `dist/graph-stats-conformance` is the conformance kit.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { TARGETS } from "./build-targets.ts";

const root = resolve(import.meta.dir, "..");

let failed = false;
for (const t of TARGETS) {
  if (!t.entry.every((e) => existsSync(resolve(root, e)))) {
    console.error(`skip ${t.out}: ${t.entry.join(", ")} missing`);
    failed = true;
    continue;
  }
  const proc = Bun.spawnSync([process.execPath, "build", "--compile", "--minify-syntax", ...t.entry, "--outfile", t.out], {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (proc.exitCode !== 0) {
    console.error(`build of ${t.out} failed (exit ${proc.exitCode})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
