/**
 * The kit's full profile against real server processes backed by a real PostgreSQL (issue #14):
 * everything — users, tokens, metering, bars — lives in PostgreSQL, which holds the sample as
 * `migrate --database-url` leaves it (a copy of one loaded once, test/support/postgres.ts). Once at the default limits (1/min, 30/day), once at 5/min and 3/day with
 * --limits-from-headers so the daily-quota checks run too.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { startPostgres, type TestDatabase } from "../test/support/postgres.ts";
import { spawnServer, type ServerProcess } from "../test/support/http/process.ts";
import { tempDbPath } from "../test/support/http/harness.ts";

const KIT = resolve(import.meta.dir, "cli.ts");
const SECRET = `conformance-pg-${crypto.randomUUID()}`;
let pgdb: TestDatabase;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  pgdb = await startPostgres({ sample: true });
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop("SIGTERM")));
  await pgdb?.stop();
});

async function serve(perMinute: number, perDay: number): Promise<ServerProcess> {
  const s = await spawnServer([
    "--port",
    "0",
    "--db",
    tempDbPath(),
    "--database-url",
    pgdb.url,
    "--jwt-secret",
    SECRET,
    "--rate-per-minute",
    String(perMinute),
    "--rate-per-day",
    String(perDay),
    "--log-level",
    "warn",
  ]);
  servers.push(s);
  return s;
}

async function kit(base: string, extra: string[] = []) {
  const proc = Bun.spawn(
    [process.execPath, KIT, "--base-url", base, "--secret", SECRET, "--profile", "full", "--reporter", "json", ...extra],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stderr, report: JSON.parse(stdout) as { results: { id: string; outcome: string; reason?: string }[] } };
}

const tally = (results: { outcome: string }[]) =>
  Object.fromEntries(["passed", "failed", "skipped"].map((o) => [o, results.filter((r) => r.outcome === o).length]));

test("full profile at the default limits: no check fails", async () => {
  const s = await serve(1, 30);
  const r = await kit(s.base);
  const failed = r.report.results.filter((x) => x.outcome === "failed");
  expect(failed.map((f) => f.id)).toEqual([]);
  expect(r.code).toBe(0);
  const t = tally(r.report.results);
  console.log(`PostgreSQL-backed, 1/min 30/day: ${JSON.stringify(t)}`);
  expect(r.report.results.find((x) => x.id === "limits.burst")?.outcome).toBe("passed");
}, 180_000);

test("full profile at 5/min and 3/day with --limits-from-headers: the daily-quota checks run and pass", async () => {
  const s = await serve(5, 3);
  const r = await kit(s.base, ["--limits-from-headers"]);
  expect(r.report.results.filter((x) => x.outcome === "failed").map((f) => f.id)).toEqual([]);
  expect(r.code).toBe(0);
  console.log(`PostgreSQL-backed, 5/min 3/day: ${JSON.stringify(tally(r.report.results))}`);
  for (const id of ["limits.daily-quota", "limits.daily-details"])
    expect(r.report.results.find((x) => x.id === id)?.outcome).toBe("passed");
}, 180_000);
