/** The service's version, from package.json, and the commit it was built from (compiled into the binary). */
import pkg from "../package.json" with { type: "json" };

declare const GRAPH_STATS_COMMIT: string | undefined;

export const VERSION: string = pkg.version;

/** The build's commit (`npm run build` defines it); from source, the checkout's, or "unknown" outside one. */
export function commit(): string {
  if (typeof GRAPH_STATS_COMMIT !== "undefined") return GRAPH_STATS_COMMIT;
  return sourceCommit();
}

/** `git rev-parse --short=12 HEAD` of the checkout this file is in; "unknown" without git or a checkout. */
export function sourceCommit(): string {
  try {
    const r = Bun.spawnSync(["git", "rev-parse", "--short=12", "HEAD"], { cwd: import.meta.dir, stderr: "ignore" });
    const out = r.stdout.toString().trim();
    return r.exitCode === 0 && /^[0-9a-f]{7,40}$/.test(out) ? out : "unknown";
  } catch {
    return "unknown";
  }
}
