/**
 * Issue #12 item 14 (README.md § CLI; docs/api.md § Tokens): the CLI and a running server agree on
 * the signing secret, the token lifetime and the default limits, because `serve` keeps them (the
 * secret only as a fingerprint) in the database. A real server process and the real CLI on one
 * database file; the CLI's commands run in this process (test/support/cli-in-process.ts), since
 * what they print and return is under test here, not their process.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";

const SERVER_SECRET = "server-secret-from-the-environment-0123";
const NO_CONFIG = { GRAPH_STATS_JWT_SECRET: "", GRAPH_STATS_TOKEN_TTL: "", GRAPH_STATS_RATE_PER_MINUTE: "", GRAPH_STATS_RATE_PER_DAY: "" };

let db: string;
let server: ServerProcess;

beforeAll(async () => {
  db = join(mkdtempSync(join(tmpdir(), "gs-agree-")), "graph-stats.sqlite");
  server = await spawnServer(
    ["--port", "0", "--db", db, "--no-sample", "--token-ttl", "2h", "--rate-per-minute", "7", "--rate-per-day", "70"],
    {
      env: { ...NO_CONFIG, GRAPH_STATS_JWT_SECRET: SERVER_SECRET },
    },
  );
});

afterAll(async () => {
  await server?.stop();
});

const cli = (args: string[], env: Record<string, string> = {}) => runCliInProcess([...args, "--db", db], { ...NO_CONFIG, ...env });
const call = (token: string) =>
  fetch(`${server.base}/v1/graph-stats/chart?universe=none`, { headers: { authorization: `Bearer ${token}` } });

describe("the signing secret", () => {
  test("token create without the server's secret refuses, naming the setting, and mints nothing", async () => {
    const r = await cli(["token", "create", "--user", "alice"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("GRAPH_STATS_JWT_SECRET");
    expect(r.stderr).toContain("--jwt-secret");
    expect(r.stdout).toBe("");
    const settings = new Database(db, { readonly: true });
    const keys = settings.query("SELECT key, value FROM settings").all() as { key: string; value: string }[];
    settings.close();
    expect(keys.map((k) => k.key)).not.toContain("jwt_secret");
    expect(JSON.stringify(keys)).not.toContain(SERVER_SECRET);
    expect((await cli(["token", "list", "--json"])).stdout.trim()).toBe("[]");
  }, 30_000);

  test("token create with another secret refuses too", async () => {
    const r = await cli(["token", "create", "--user", "alice"], { GRAPH_STATS_JWT_SECRET: "some-other-secret-0123456789" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does not match");
  }, 30_000);

  test("with the server's secret the token works, lasts the server's --token-ttl, and carries its default limits", async () => {
    const r = await cli(["token", "create", "--user", "bob", "--json"], { GRAPH_STATS_JWT_SECRET: SERVER_SECRET });
    expect(r.code).toBe(0);
    const [t] = JSON.parse(r.stdout) as { token: string; expires_at: string }[];
    const ttl = Date.parse(t!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 3600_000);
    const res = await call(t!.token);
    expect(res.status).not.toBe(401);
    expect(res.headers.get("x-ratelimit-limit")).toBe("7");
  }, 30_000);

  test("--ttl on token create's own command line wins over the server's", async () => {
    const r = await cli(["token", "create", "--user", "bob", "--ttl", "10m", "--json"], { GRAPH_STATS_JWT_SECRET: SERVER_SECRET });
    expect(r.code).toBe(0);
    const ttl = Date.parse((JSON.parse(r.stdout) as { expires_at: string }[])[0]!.expires_at) - Date.now();
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(ttl).toBeGreaterThan(9 * 60_000);
  }, 30_000);

  test("a stale GRAPH_STATS_TOKEN_TTL in the CLI's environment is set aside for the server's, with a note", async () => {
    const r = await cli(["token", "create", "--user", "bob", "--json"], {
      GRAPH_STATS_JWT_SECRET: SERVER_SECRET,
      GRAPH_STATS_TOKEN_TTL: "1h",
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("GRAPH_STATS_TOKEN_TTL=1h set aside: the server was started with 2h");
    const ttl = Date.parse((JSON.parse(r.stdout) as { expires_at: string }[])[0]!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(2 * 3600_000 - 60_000);
  }, 30_000);
});

describe("users and limits", () => {
  test("token create makes the user, so user disable works before the token's first use", async () => {
    const r = await cli(["token", "create", "--user", "carol"], { GRAPH_STATS_JWT_SECRET: SERVER_SECRET });
    expect(r.code).toBe(0);
    const d = await cli(["user", "disable", "carol"]);
    expect(d.stderr).toBe("");
    expect(d.code).toBe(0);
    expect((await call(r.stdout.trim())).status).toBe(403);
  }, 30_000);

  test("user limits shows the server's default limits, unless given on its own command line", async () => {
    expect((await cli(["user", "create", "dave"])).code).toBe(0);
    const shown = await cli(["user", "limits", "dave"]);
    expect(shown.stdout).toContain("per_minute 7 (default), per_day 70 (default)");
    const own = await cli(["user", "limits", "dave", "--rate-per-minute", "3"]);
    expect(own.stdout).toContain("per_minute 3 (default), per_day 70 (default)");
  }, 30_000);
});

describe("previous secrets (issue #12 item 10)", () => {
  test("serve with a previous secret shorter than 16 characters exits 2 naming the option", async () => {
    const r = await runCliInProcess(["serve", "--port", "0", "--db", db, "--jwt-previous-secrets", "a,b"], {
      ...NO_CONFIG,
      GRAPH_STATS_JWT_SECRET: SERVER_SECRET,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--jwt-previous-secrets (GRAPH_STATS_JWT_PREVIOUS_SECRETS)");
    expect(r.stderr).toContain("at least 16 characters");
  }, 30_000);
});
