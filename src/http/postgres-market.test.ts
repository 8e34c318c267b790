/**
 * Market data on a shared PostgreSQL (README.md § PostgreSQL), against real server processes and
 * the real CLI: a fresh database gets the synthetic sample once even when three instances start
 * together, --no-sample (or GRAPH_STATS_SAMPLE=false) keeps it empty, and an import through the CLI
 * is served by every running instance once its data version is read again (at most VERSION_TTL_MS
 * after the import), their result caches following it: one request per instance, none polled.
 * The CLI's commands (migrate, import) run in this process (test/support/cli-in-process.ts): what
 * they print and write is under test; the servers are processes.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { VERSION_TTL_MS } from "../market/market-store.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";
import { pgServeArgs, SECRET } from "../../test/support/http/harness.ts";

const running: ServerProcess[] = [];
const opened: { db: TestDatabase; sql: SQL }[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});
afterAll(async () => {
  for (const o of opened.splice(0)) {
    await o.sql.close();
    await o.db.stop();
  }
});

/** A fresh PostgreSQL database (no schema yet) and a client to inspect it. */
async function freshDatabase() {
  const db = await startPostgres();
  const sql = new SQL(db.url, { max: 2 });
  opened.push({ db, sql });
  return { url: db.url, sql };
}

async function instances(url: string, n: number, extra: string[] = []): Promise<ServerProcess[]> {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      spawnServer([...pgServeArgs(url), "--rate-per-minute", "1000", ...extra], {
        timeoutMs: 60_000,
      }),
    ),
  );
  running.push(...started);
  return started;
}

const auth = async () => ({
  Authorization: `Bearer ${(await mintToken({ secret: SECRET, userId: "reader", ttlSeconds: 3600, clock: systemClock })).token}`,
});
const marketRows = async (sql: SQL) =>
  (
    await sql`SELECT (SELECT count(*)::int FROM bars) AS bars, (SELECT count(*)::int FROM universes) AS universes,
    (SELECT value FROM settings WHERE key = 'data_version') AS version`
  )[0];

test("three instances starting together on a fresh database: the sample is loaded once, and all three serve it from PostgreSQL", async () => {
  const { url, sql } = await freshDatabase();
  const servers = await instances(url, 3);
  const loaders = servers.filter((s) => s.logs.some((l) => l.includes("loaded the synthetic sample universe")));
  expect(loaders).toHaveLength(1);
  // One load is one data-version bump; 50 symbols' daily and 1-minute bars.
  expect(await marketRows(sql)).toEqual({ bars: expect.any(Number), universes: 1, version: "1" });
  const headers = await auth();
  const bodies = await Promise.all(
    servers.map(async (s) => {
      const r = await fetch(`${s.base}/v1/graph-stats/chart?lookback=60&graph_method=mst`, { headers });
      expect(r.status).toBe(200);
      return JSON.stringify(((await r.json()) as { data: unknown }).data);
    }),
  );
  expect(bodies[0]!.length).toBeGreaterThan(1000);
  expect(new Set(bodies).size).toBe(1);
  // Restarted, nothing is loaded again.
  await Promise.all(running.splice(0).map((s) => s.stop("SIGTERM")));
  const again = await instances(url, 1);
  expect(again[0]!.logs.join("\n")).not.toContain("loaded the synthetic sample");
  expect((await marketRows(sql)).version).toBe("1");
}, 180_000);

test("migrate --database-url on a fresh database loads the sample; --no-sample and GRAPH_STATS_SAMPLE=false leave it empty, and a later migrate does not add it", async () => {
  const a = await freshDatabase();
  const first = await runCli(["migrate", "--database-url", a.url]);
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/: applied \d+ migrations; schema \d{4}_/);
  expect(first.stdout).toContain("loaded the synthetic sample: universe sample, 50 symbols");
  expect(first.stdout).not.toContain("graph-stats-test"); // the password
  const second = await runCli(["migrate", "--database-url", a.url]);
  expect(second.stdout).toContain("was already up to date");
  expect(second.stdout).not.toContain("sample");
  expect((await marketRows(a.sql)).version).toBe("1");

  const b = await freshDatabase();
  expect((await runCli(["migrate", "--database-url", b.url, "--no-sample"])).code).toBe(0);
  expect((await runCli(["migrate", "--database-url", b.url])).stdout).not.toContain("sample");
  expect(await marketRows(b.sql)).toEqual({ bars: 0, universes: 0, version: null });

  const c = await freshDatabase();
  expect((await runCli(["migrate"], { GRAPH_STATS_DATABASE_URL: c.url, GRAPH_STATS_SAMPLE: "false" })).code).toBe(0);
  expect(await marketRows(c.sql)).toEqual({ bars: 0, universes: 0, version: null });
}, 180_000);

/** Six symbols' daily closes as CSV files named after them; `shift` changes every close. */
function writeUniverse(dir: string, shift: number): string[] {
  const files: string[] = [];
  for (let k = 0; k < 6; k++) {
    let price = 100 + k * 10;
    const rows = ["timestamp,open,high,low,close,volume"];
    for (let d = 0; d < 120; d++) {
      price *= 1 + Math.sin(d * (k + 1) * 0.7 + k) * 0.02 + shift * Math.cos(d * (k + 2)) * 0.01;
      const day = new Date(Date.UTC(2025, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      rows.push(`${day},${price},${price},${price},${price},1000`);
    }
    const file = join(dir, `SYM${k}.csv`);
    writeFileSync(file, `${rows.join("\n")}\n`);
    files.push(file);
  }
  return files;
}

test("an import through the CLI is served by two running instances once their data version is due, and a changed import reaches their caches", async () => {
  const { url } = await freshDatabase();
  expect((await runCli(["migrate", "--database-url", url, "--no-sample"])).code).toBe(0);
  const servers = await instances(url, 2, ["--no-sample"]);
  const headers = await auth();
  const chart = (s: ServerProcess) => fetch(`${s.base}/v1/graph-stats/chart?universe=imported&lookback=60&graph_method=mst`, { headers });
  for (const s of servers) expect((await chart(s)).status).toBe(404);

  /**
   * Each instance's answer, asked once the import has committed and the data version each one read
   * before it has had VERSION_TTL_MS to expire: the next read finds the import. One request per
   * instance, so nothing is polled and no user's quota spent waiting.
   */
  const served = async () => {
    await Bun.sleep(VERSION_TTL_MS);
    return Promise.all(
      servers.map(async (s) => {
        const r = await chart(s);
        expect(r.status).toBe(200);
        return JSON.stringify(((await r.json()) as { data: unknown }).data);
      }),
    );
  };

  const dir = mkdtempSync(join(tmpdir(), "gs-pg-import-"));
  const imported = await runCli(["import", "--database-url", url, "--universe", "imported", ...writeUniverse(dir, 0)]);
  expect(imported.code).toBe(0);
  expect(imported.stdout).toContain("6 file(s) imported, 0 rejected; 720 rows (720 new");
  const first = await served();
  expect(first[0]).toBe(first[1]!);

  // The same question again is cached; new closes must replace the cached answer on both.
  const changed = await runCli(["import", "--database-url", url, "--universe", "imported", ...writeUniverse(dir, 1)]);
  expect(changed.stdout).toContain("720 rows (0 new, 720 updated");
  const second = await served();
  expect(second[0]).toBe(second[1]!);
  expect(second[0]).not.toBe(first[0]!);
}, 180_000);
