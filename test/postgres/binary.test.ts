/**
 * The single binary on PostgreSQL, as docs/deploy.md runs it: `migrate` and `import` with
 * --database-url, two instances serving one meter, data imported once served by both, each holding
 * its whole --db-pool of connections once it has used one (docs/deploy.md § 1. PostgreSQL).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, spawnServer, type ServerProcess } from "../support/http/process.ts";
import { serverBinary } from "../support/binary.ts";
import { startPostgres, type TestDatabase } from "../support/postgres.ts";

const SECRET = "binary-on-postgres-secret-0123456789";
let pg: TestDatabase;
let bin: string;
const servers: ServerProcess[] = [];
const dir = mkdtempSync(join(tmpdir(), "gs-bin-pg-"));

beforeAll(async () => {
  [pg, bin] = await Promise.all([startPostgres(), serverBinary()]);
}, 240_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await pg?.stop();
});

test("migrate, import and two instances from the binary share users, limits and data", async () => {
  const env = { GRAPH_STATS_DATABASE_URL: pg.url, GRAPH_STATS_JWT_SECRET: SECRET };
  // --no-sample, as docs/deploy.md § 3. Migrations and data says: the data here is the import; loading
  // the sample on PostgreSQL (~3 s of CPU) is postgres-market.test.ts's subject, the binary's on SQLite src/build.test.ts's.
  const migrated = await runCli(["migrate", "--no-sample"], { bin, cwd: dir, env });
  expect(migrated.code).toBe(0);
  expect(migrated.stdout + migrated.stderr).not.toContain("graph-stats-test@"); // the password is never printed
  // One instance with the default pool (10), one with 3: the connections they hold are counted below.
  for (const pool of [[], ["--db-pool", "3"]]) servers.push(await spawnServer(["--port", "0", ...pool], { bin, cwd: dir, env }));
  const [a, b] = servers as [ServerProcess, ServerProcess];

  // Data imported once (through the CLI) is served by both instances.
  const write = (name: string, wiggle: (i: number) => number) => {
    const rows = Array.from({ length: 80 }, (_, i) => {
      const d = new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const c = (100 + i * 0.1) * (1 + wiggle(i) / 40);
      return `${d},${c},${c + 1},${c - 1},${c},1000`;
    });
    const path = join(dir, `${name}.csv`);
    writeFileSync(path, `timestamp,open,high,low,close,volume\n${rows.join("\n")}\n`);
    return path;
  };
  const files = [write("PAIR-A", (i) => Math.sin(i / 3)), write("PAIR-B", (i) => Math.sin(i / 3) + Math.cos(i))];
  const imported = await runCli(["import", "--universe", "pair", ...files], { bin, cwd: dir, env });
  expect(imported.stderr).toBe("");
  expect(imported.code).toBe(0);

  const minted = await runCli(["token", "create", "--user", "bin-pg", "--json"], { bin, cwd: dir, env });
  expect(minted.code).toBe(0);
  const [{ token }] = JSON.parse(minted.stdout);
  const ask = (s: ServerProcess) =>
    fetch(`${s.base}/v1/graph-stats/chart?universe=pair&lookback=30&include_graph=false`, {
      headers: { Authorization: `Bearer ${token}` },
    });
  const first = await ask(a);
  expect(first.status).toBe(200);
  expect(((await first.json()) as any).data.stocks.map((s: any) => s.symbol)).toEqual(["PAIR-A", "PAIR-B"]);
  // The other instance knows the same user's minute is used.
  const second = await ask(b);
  expect(second.status).toBe(429);
  expect(second.headers.get("x-ratelimit-daily-remaining")).toBe("29");
  expect(((await (await fetch(`${b.base}/health`)).json()) as any).data.checks.database).toBe("ok");

  // Each instance holds its whole pool, not the one or two connections its requests needed: Bun's
  // pool opens every connection at its first query. The sizing rule in docs/deploy.md rests on this.
  const admin = new SQL(pg.url, { max: 1 });
  try {
    const held = async () =>
      Number(
        (await admin`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = ${pg.name} AND application_name = 'graph-stats'`)[0].n,
      );
    const pools = 10 + 3;
    let n = await held();
    for (let i = 0; i < 50 && n < pools; i++) {
      await Bun.sleep(100);
      n = await held();
    }
    expect(n).toBe(pools);
  } finally {
    await admin.close();
  }
}, 120_000);
