/**
 * What `npm run build` compiles (src/build.ts), shared with the test that builds the binary.
 * The server's checkpoint and compute workers are further entrypoints so the binary carries them
 * (Bun compiles workers into a standalone executable only when they are listed).
 */
export const SERVER_ENTRIES = ["src/cli.ts", "src/http/checkpoint-worker.ts", "src/http/compute-worker.ts"];

export const TARGETS = [
  { entry: SERVER_ENTRIES, out: "dist/graph-stats" },
  { entry: ["conformance/cli.ts"], out: "dist/graph-stats-conformance" },
];
