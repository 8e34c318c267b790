/**
 * Several real server processes sharing one real PostgreSQL (README.md § PostgreSQL): a burst of
 * one user spread over 2 and 3 instances admits exactly the limits, a killed instance loses nothing
 * admitted and its unanswered requests are refunded once, PostgreSQL stopped under load gives live
 * 503s with the rate-limit headers and /health 503 and service resumes by itself, and tokens,
 * revocations and dashboard sessions made on one instance hold on the others. The instances keep
 * nothing in SQLite: the database holds the sample as `migrate --database-url` leaves it (a copy of
 * one loaded once, test/support/postgres.ts; migrate itself is tested in postgres-market.test.ts),
 * and every bar comes from there.
 *
 * An instance costs about a second of CPU to start, so the tests share them where a test does not
 * start or end one itself: the three limit tests one set of three, the token, outage and SIGKILL
 * tests one pair (in that order: the SIGKILL test ends one of the pair). Each test has users of
 * its own, so none reads another's rows.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { createPgSessionStore } from "../dashboard/session-stores.ts";
import { openPg } from "../../db/pg/open.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";
import { pgServeArgs, SECRET, tempDbPath } from "../../test/support/http/harness.ts";
import { existsSync } from "node:fs";

const json = (r: Response): Promise<any> => r.json();
const LIVE = "/v1/graph-stats/chart?lookback=60&graph_method=mst";
let pgdb: TestDatabase;
let sql: SQL;
/** Instances a test started for itself, killed after it; a describe's shared ones go after its last test. */
const running: ServerProcess[] = [];

beforeAll(async () => {
  pgdb = await startPostgres({ sample: true });
  sql = new SQL(pgdb.url, { max: 2 });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
  if (!pgdb.server.running) await pgdb.server.start();
});
afterAll(async () => {
  await sql?.close();
  await pgdb?.stop();
});

/** A --db path that must stay untouched: on PostgreSQL the server opens no SQLite file. */
const unusedDb = tempDbPath();

async function instances(n: number, extra: string[] = [], into = running): Promise<ServerProcess[]> {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      spawnServer([...pgServeArgs(pgdb.url, unusedDb), "--log-level", "warn", ...extra], {
        env: { GRAPH_STATS_LOG_LEVEL: "info" },
      }),
    ),
  );
  into.push(...started);
  expect(existsSync(unusedDb)).toBe(false);
  return started;
}

/** Instances started once for a describe's tests and killed after its last. */
function sharedInstances(n: number, extra: string[], before: () => Promise<void> = async () => {}): () => ServerProcess[] {
  const shared: ServerProcess[] = [];
  beforeAll(async () => {
    await before();
    await instances(n, extra, shared);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(shared.splice(0).map((s) => s.stop("SIGKILL")));
  });
  return () => shared;
}

const token = async (user: string) => (await mintToken({ secret: SECRET, userId: user, ttlSeconds: 3600, clock: systemClock })).token;

async function meter(user: string) {
  const [r] = await sql`SELECT coalesce(sum(counted), 0)::int AS counted, count(*) FILTER (WHERE status = 429)::int AS refused,
      count(*) FILTER (WHERE status IS NULL AND counted = 1)::int AS open,
      (SELECT coalesce(sum(admitted), 0)::int FROM usage_days WHERE user_id = ${user}) AS day
    FROM request_log WHERE user_id = ${user}`;
  return r as { counted: number; refused: number; open: number; day: number };
}

/** `total` requests of one user at once, spread round-robin over the instances; statuses counted. */
async function burst(servers: ServerProcess[], user: string, total: number) {
  const auth = { Authorization: `Bearer ${await token(user)}` };
  const statuses = await Promise.all(
    Array.from({ length: total }, (_, i) =>
      fetch(servers[i % servers.length]!.base + LIVE, { headers: auth }).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
        () => 0,
      ),
    ),
  );
  const count = (s: number) => statuses.filter((x) => x === s).length;
  return { ok: count(200), refused: count(429), other: statuses.filter((s) => s !== 200 && s !== 429) };
}

describe("the limits over several instances (three, --rate-per-minute 10 --rate-per-day 25)", () => {
  // 'daily' has a minute limit of its own (user limits, as an operator sets one), so its day runs
  // out first; its 25 a day is still the instances' flag.
  const servers = sharedInstances(3, ["--rate-per-minute", "10", "--rate-per-day", "25"], async () => {
    expect((await runCli(["user", "create", "daily", "--database-url", pgdb.url])).code).toBe(0);
    expect((await runCli(["user", "limits", "daily", "--per-minute", "1000", "--database-url", pgdb.url])).code).toBe(0);
  });

  for (const n of [2, 3]) {
    test(`200 concurrent live requests of one user over ${n} instances: exactly the 10/minute limit admitted, every one audited`, async () => {
      const r = await burst(servers().slice(0, n), `burst-${n}`, 200);
      expect(r).toEqual({ ok: 10, refused: 190, other: [] });
      expect(await meter(`burst-${n}`)).toEqual({ counted: 10, refused: 190, open: 0, day: 10 });
    }, 120_000);
  }

  test("the daily quota holds across 3 instances: 25/day with 1000/minute admits 25 of 200", async () => {
    expect(await burst(servers(), "daily", 200)).toEqual({ ok: 25, refused: 175, other: [] });
    expect(await meter("daily")).toEqual({ counted: 25, refused: 175, open: 0, day: 25 });
  }, 120_000);
});

const publicUrl = "http://gs.test";

describe("two instances (--rate-per-minute 1000 --rate-per-day 100000, one compute thread each)", () => {
  // One compute thread: the SIGKILL test's burst queues on it, so the kill finds requests admitted and unanswered.
  const pair = sharedInstances(2, [
    "--rate-per-minute",
    "1000",
    "--rate-per-day",
    "100000",
    "--compute-threads",
    "1",
    "--public-url",
    publicUrl,
  ]);

  test("tokens, revocations and dashboard sessions made through one instance hold on the others", async () => {
    const [a, b] = pair();
    // token create with --database-url (the CLI's commands, in this process): the CLI writes to the same PostgreSQL.
    const created = await runCli(["token", "create", "--user", "shared", "--json", "--jwt-secret", SECRET, "--database-url", pgdb.url]);
    expect(created.code).toBe(0);
    const [{ token: cliToken, jti }] = JSON.parse(created.stdout);
    expect((await fetch(a!.base + LIVE, { headers: { Authorization: `Bearer ${cliToken}` } })).status).toBe(200);
    const revoked = await runCli(["token", "revoke", jti, "--database-url", pgdb.url]);
    expect(revoked.stdout).toContain("revoked");
    const refused = await fetch(b!.base + LIVE, { headers: { Authorization: `Bearer ${cliToken}` } });
    expect(refused.status).toBe(401);
    expect((await json(refused)).errors[0].message).toBe("token revoked");

    // A session as instance A's sign-in leaves it, used on instance B to generate a token used on A.
    const pg = await openPg(pgdb.url, { poolSize: 1 });
    const store = createPgSessionStore(pg.db, systemClock);
    const userId = await store.signIn({ issuer: "https://idp.test", subject: "42", email: "d@x.test", name: "D" });
    const { id, csrf } = await store.create(userId, "https://idp.test");
    await pg.close();
    const cookie = { Cookie: `gs_session=${id}` };
    const state = await fetch(`${b!.base}/dashboard/api/state`, { headers: cookie });
    expect(state.status).toBe(200);
    expect((await json(state)).data.user.id).toBe(userId);
    const generated = await fetch(`${b!.base}/dashboard/api/tokens`, {
      method: "POST",
      headers: { ...cookie, Origin: publicUrl, "X-CSRF-Token": csrf },
    });
    expect(generated.status).toBe(201);
    const dashToken = (await json(generated)).data.token;
    expect((await fetch(a!.base + LIVE, { headers: { Authorization: `Bearer ${dashToken}` } })).status).toBe(200);
    const listed = await fetch(`${a!.base}/dashboard/api/state`, { headers: cookie });
    expect((await json(listed)).data.tokens).toHaveLength(1);
  }, 120_000);

  test("PostgreSQL stopped under load: live 503 with the rate-limit headers, /health 503; started again, service resumes by itself and the counts are exact", async () => {
    const servers = pair();
    const auth = { Authorization: `Bearer ${await token("outage")}` };
    for (const s of servers) expect((await fetch(s.base + LIVE, { headers: auth })).status).toBe(200); // both instances know the user
    await pgdb.server.stop();
    for (const s of servers) {
      const live = await fetch(s.base + LIVE, { headers: auth });
      expect(live.status).toBe(503);
      expect(live.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(live.headers.get("x-ratelimit-limit")).toBe("1000");
      expect(live.headers.get("x-ratelimit-daily-remaining")).toMatch(/^\d+$/);
      const body = await json(live);
      expect(body.errors[0].code).toBe("SERVICE_UNAVAILABLE");
      expect(JSON.stringify(body)).not.toContain("postgres");
      // The last healthy ping is reused for HEALTH_CHECK_MS: /health (unmetered) is asked until it notices.
      let health = await fetch(`${s.base}/health`);
      while (health.status === 200) health = await Bun.sleep(10).then(() => fetch(`${s.base}/health`));
      expect(health.status).toBe(503);
      expect((await json(health)).meta.checks.database).toBe("unavailable");
    }
    await pgdb.server.start();
    const deadline = Date.now() + 15_000;
    let statuses: number[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(servers.map((s) => fetch(s.base + LIVE, { headers: auth }).then((r) => r.status)));
      if (statuses.every((x) => x === 200)) break;
      await Bun.sleep(200);
    }
    expect(statuses).toEqual([200, 200]);
    for (const s of servers) expect((await fetch(`${s.base}/health`)).status).toBe(200);
    // The outcomes that waited are written by the next flush (each second): waited for, not slept for.
    const exact = { counted: 4, refused: 0, open: 0, day: 4 };
    let counts = await meter("outage");
    for (let i = 0; i < 100 && !Bun.deepEquals(counts, exact); i++) counts = await Bun.sleep(50).then(() => meter("outage"));
    expect(counts).toEqual(exact);
  }, 120_000);

  test("SIGKILL of one instance mid-burst: every 200 answered stays counted; its unanswered admissions are refunded once at the next start", async () => {
    const servers = pair();
    const auth = { Authorization: `Bearer ${await token("killed")}` };
    // Both instances answer (and have read the bar coverage from PostgreSQL), so the kill lands mid-burst.
    const warm = { Authorization: `Bearer ${await token("warm-up")}` };
    for (const s of servers) expect((await fetch(s.base + LIVE, { headers: warm })).status).toBe(200);
    const answered: number[] = [];
    // The kill comes once the first instance holds requests admitted and not yet answered (its
    // rows carry its pid): a fixed 300 ms sleep came after it had answered all 150 here.
    const load = Array.from({ length: 300 }, (_, i) =>
      fetch(`${servers[i % 2]!.base}/v1/graph-stats/chart?lookback=${60 + (i % 40)}&graph_method=mst`, { headers: auth }).then(
        (r) => answered.push(r.status),
        () => answered.push(0),
      ),
    );
    const firstBoot = `%:${servers[0]!.proc.pid}:%`;
    for (const end = Date.now() + 10_000; Date.now() < end; await Bun.sleep(2)) {
      const [{ n }] = await sql`SELECT count(*)::int AS n FROM request_log
        WHERE user_id = 'killed' AND counted = 1 AND status IS NULL AND boot_id LIKE ${firstBoot}`;
      if (n >= 5) break;
    }
    servers[0]!.proc.kill("SIGKILL");
    await Promise.all(load);
    const ok = answered.filter((s) => s === 200).length;
    const lost = answered.filter((s) => s === 0).length;
    const before = await meter("killed");
    const recorded = before.counted - before.open;
    expect(before.open).toBeGreaterThan(0); // the premise: the kill found requests admitted and unanswered
    // Nothing answered 200 is lost; what the dead instance admitted but never answered is still open.
    // A cached answer is recorded answered at admission (docs/api.md § The audit log), so one whose
    // reply the kill cut off stays counted: at most the requests whose connection the kill dropped.
    expect(recorded).toBeGreaterThanOrEqual(ok);
    expect(recorded - ok).toBeLessThanOrEqual(lost);
    // Two new instances on this host start together: each finds the dead process's open rows, and they are refunded once.
    await Promise.all([instances(1), instances(1)]);
    expect(await meter("killed")).toMatchObject({ counted: recorded, open: 0, day: recorded });
  }, 120_000);
});

test("serve --workers 2 on PostgreSQL: the workers share the port and the meter stays exact; /metrics counts pool connections in use", async () => {
  const server = await spawnServer(
    [...pgServeArgs(pgdb.url, unusedDb), "--workers", "2", "--rate-per-minute", "7", "--rate-per-day", "1000"],
    {
      listening: 2,
    },
  );
  running.push(server);
  expect(server.logs.join("\n")).not.toContain("graph-stats-test"); // the URL's password is never logged
  expect(await burst([server], "workers", 100)).toEqual({ ok: 7, refused: 93, other: [] });
  expect(await meter("workers")).toEqual({ counted: 7, refused: 93, open: 0, day: 7 });
  const metrics = await (await fetch(`${server.base}/metrics`)).text();
  expect(metrics).toMatch(/^graphstats_db_connections_in_use \d+$/m);
}, 120_000);
