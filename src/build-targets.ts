/**
 * What `npm run build` compiles (src/build.ts), shared with the tests that build the binary.
 * The server's checkpoint and compute workers are further entrypoints so the binary carries them
 * (Bun compiles workers into a standalone executable only when they are listed), and the
 * dashboard's bundled script and stylesheet are defined into it (src/dashboard/web-assets.ts).
 */
import { sourceCommit } from "./version.ts";
import { resolve } from "node:path";
import { bundleWebAssets } from "./dashboard/web/bundle.ts";

export const SERVER_ENTRIES = ["src/cli.ts", "db/sqlite/checkpoint-worker.ts", "src/compute/compute-worker.ts"];

const root = resolve(import.meta.dir, "..");

export interface Target {
  out: string;
  entry: string[];
  /** Compile-time constants (the dashboard's assets for the server). */
  define?: () => Promise<Record<string, string>>;
}

export const TARGETS: Target[] = [
  {
    entry: SERVER_ENTRIES,
    out: "dist/graph-stats",
    define: async () => ({
      GRAPH_STATS_WEB_ASSETS: JSON.stringify(await bundleWebAssets()),
      GRAPH_STATS_COMMIT: JSON.stringify(sourceCommit()),
    }),
  },
  { entry: ["conformance/cli.ts"], out: "dist/graph-stats-conformance" },
];

/**
 * Compiles one target into `outfile` (absolute, or relative to the repo); throws with the build log
 * on failure. `bytecode: false` only for the start-up benchmark's comparison.
 */
export async function compile(target: Target, outfile = target.out, { bytecode = true } = {}): Promise<void> {
  const result = await Bun.build({
    entrypoints: target.entry.map((e) => resolve(root, e)),
    compile: { outfile: resolve(root, outfile) },
    // keepNames: oidc-provider (the development sign-in) tells its models apart by class name, which bundling renames.
    minify: { syntax: true, keepNames: true },
    // Parsed at build time: a serve starts on about half the CPU, --version on a quarter
    // (docs/benchmarks.md § Start-up). ESM bytecode needs compile, which every target is.
    bytecode,
    format: "esm",
    define: target.define ? await target.define() : {},
  });
  if (!result.success) throw new Error(`build of ${outfile} failed: ${result.logs.map((l) => l.message).join("; ")}`);
}
