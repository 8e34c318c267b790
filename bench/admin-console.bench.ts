/**
 * The admin console's server time on a big deployment, on SQLite and on PostgreSQL (a real one,
 * started here): 10,000 users (with sign-in names and 20,000 live tokens), 1,000,000 request-log
 * rows over 30 days (admitted, refused, refunded, 4xx) and 1,000,000 admin-audit rows. Each console
 * API is called in process (app.handle, signed in as an admin) and its median of several calls printed.
 * `npx bun bench/admin-console.bench.ts [--kind sqlite|postgres] [--calls 7]`
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SQL } from "bun";
import { openDatabase } from "../db/sqlite/open.ts";
import { TestClock } from "../src/clock.ts";
import { startPostgres } from "../test/support/postgres.ts";
import { startSignInServer } from "../test/support/sign-in-server.ts";

const { values } = parseArgs({ options: { kind: { type: "string" }, calls: { type: "string", default: "7" } } });
const CALLS = Number(values.calls);
const USERS = 10_000;
const LOG_ROWS = 1_000_000;
const AUDIT_ROWS = 1_000_000;
const T0 = Date.parse("2026-11-01T00:00:00Z");
const STEP = Math.floor((30 * 86_400_000) / LOG_ROWS);
const NOW = T0 + LOG_ROWS * STEP + 60_000;

/** The fill as one statement per table; `s` is the series of i from 0 to n - 1 in the dialect. */
function fill(s: (n: number) => string, big: string): string[] {
  const i = `i${big}`;
  return [
    "INSERT INTO plans (name, per_minute, per_day, updated_at) VALUES ('team', 10, 1000, 0)",
    `INSERT INTO users (id, email, disabled, created_at, plan, admin)
       SELECT 'user-' || i, 'user' || i || '@lab.example', ${big ? "false" : "0"}, ${T0}, CASE WHEN i % 10 = 0 THEN 'team' END, ${big ? "false" : "0"} FROM ${s(USERS)}`,
    `INSERT INTO identities (issuer, subject, user_id, name, created_at, last_sign_in_at)
       SELECT 'https://idp.bench', 'user-' || i, 'user-' || i, 'Person ' || i, ${T0}, ${T0} FROM ${s(USERS)}`,
    `INSERT INTO tokens (jti, user_id, issued_at, expires_at) SELECT 't' || i, 'user-' || (i % ${USERS}), ${NOW - 3_600_000}, ${NOW + 86_400_000} FROM ${s(2 * USERS)}`,
    // 85% admitted, 10% refused (two codes), 3% 400, 1% refunded 500, 1% client gone.
    `INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params, boot_id)
       SELECT 'r' || i, 'user-' || (${i} * 7919 % ${USERS}), ${T0} + ${i} * ${STEP},
         CASE WHEN i % 100 < 85 THEN 200 WHEN i % 100 < 95 THEN 429 WHEN i % 100 < 98 THEN 400 WHEN i % 100 = 98 THEN 500 ELSE 499 END,
         (i % 50) + 1.5,
         CASE WHEN i % 100 < 85 THEN 1 ELSE 0 END,
         CASE WHEN i % 100 < 85 THEN NULL WHEN i % 100 < 95 THEN (CASE WHEN i % 2 = 0 THEN 'RATE_LIMITED' ELSE 'DAILY_QUOTA_EXCEEDED' END)
              WHEN i % 100 < 98 THEN 'BAD_REQUEST' WHEN i % 100 = 98 THEN 'INTERNAL_ERROR' ELSE 'CLIENT_CLOSED_REQUEST' END,
         'lookback=60',
         CASE WHEN i % 100 < 85 OR i % 100 >= 98 THEN 'boot' END
       FROM ${s(LOG_ROWS)}`,
    `INSERT INTO unauthenticated_counts (minute, code, count) SELECT ${T0} + ${i} * 3600000, 'UNAUTHORIZED', 3 FROM ${s(720)}`,
    `INSERT INTO admin_audit (ts, actor, action, target, before, after)
       SELECT ${T0} + ${i} * ${STEP}, CASE WHEN i % 3 = 0 THEN 'cli:op' ELSE 'console:user-' || (i % 7) END, 'user.limits', 'user-' || (i % ${USERS}),
         '{"plan":"free","per_minute":null,"per_day":null,"disabled":false,"admin":false,"email":null}',
         '{"plan":"free","per_minute":' || (i % 9 + 1) || ',"per_day":null,"disabled":false,"admin":false,"email":null}'
       FROM ${s(AUDIT_ROWS)}`,
  ];
}

const sqliteSeries = (n: number) =>
  `(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${n - 1}) SELECT i FROM s) AS s`;
const pgSeries = (n: number) => `generate_series(0, ${n - 1}) AS s(i)`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function bench(kind: "sqlite" | "postgres"): Promise<void> {
  const t0 = performance.now();
  let settings: Record<string, unknown> = {};
  let dbPath: string | undefined;
  let stopPg = async () => {};
  if (kind === "sqlite") {
    dbPath = join(mkdtempSync(join(tmpdir(), "gs-console-bench-")), "bench.sqlite");
    const opened = openDatabase(dbPath);
    opened.sqlite.transaction(() => {
      for (const q of fill(sqliteSeries, "")) opened.sqlite.exec(q);
    })();
    opened.sqlite.close();
  } else {
    const pg = await startPostgres({ migrated: true });
    const sql = new SQL(pg.url);
    for (const q of fill(pgSeries, "::bigint")) await sql.unsafe(q);
    // What autovacuum does after a bulk load; done at once so the plans are the steady state's.
    await sql.unsafe("VACUUM ANALYZE");
    await sql.close();
    settings = { databaseUrl: pg.url };
    stopPg = () => pg.stop();
  }
  console.log(`${kind}: filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const s = await startSignInServer({ dbPath, clock: new TestClock(NOW), settings: { ...settings, sample: false } });
  const { cookie, csrf } = await s.signIn("bench-admin");
  const state = (await (await s.handle("/dashboard/api/state", { headers: { Cookie: cookie } })).json()) as {
    data: { user: { id: string } };
  };
  const adminId = state.data.user.id;
  const db = kind === "postgres" ? new SQL(String(settings.databaseUrl)) : null;
  if (db) await db`UPDATE users SET admin = true WHERE id = ${adminId}`;
  else s.server.opened.sqlite.query("UPDATE users SET admin = 1 WHERE id = ?").run(adminId);

  const headers = { Cookie: cookie, Origin: s.base, "X-CSRF-Token": csrf, "Content-Type": "application/json" };
  const time = async (label: string, method: string, path: string, body?: (k: number) => unknown) => {
    const ms: number[] = [];
    let status = 0;
    for (let k = 0; k < CALLS + 1; k++) {
      const b = body ? JSON.stringify(body(k)) : undefined;
      const t = performance.now();
      const res = await s.handle(path, { method, headers, body: b });
      await res.arrayBuffer();
      if (k > 0) ms.push(performance.now() - t); // the first call warms the statement caches
      status = res.status;
    }
    console.log(
      `${kind.padEnd(8)} ${label.padEnd(44)} ${status}  median ${median(ms).toFixed(1).padStart(7)} ms  (max ${Math.max(...ms).toFixed(1)}, n=${CALLS})`,
    );
  };

  await time("GET /dashboard/admin (page)", "GET", "/dashboard/admin");
  await time("users, first page of 50", "GET", "/dashboard/api/admin/users");
  await time("users, page of 200 at offset 5000", "GET", "/dashboard/api/admin/users?limit=200&offset=5000");
  await time("users, search 'person 4242'", "GET", "/dashboard/api/admin/users?q=person%204242");
  await time("users, search '@lab' (every user)", "GET", "/dashboard/api/admin/users?q=%40lab");
  await time("plans", "GET", "/dashboard/api/admin/plans");
  await time("usage, 30 days", "GET", "/dashboard/api/admin/usage?days=30");
  await time("usage, 7 days", "GET", "/dashboard/api/admin/usage?days=7");
  await time("usage, 366 days", "GET", "/dashboard/api/admin/usage?days=366");
  await time("universes", "GET", "/dashboard/api/admin/universes");
  await time("audit, newest 50", "GET", "/dashboard/api/admin/audit");
  await time("audit, 50 before the middle", "GET", `/dashboard/api/admin/audit?before_id=${AUDIT_ROWS / 2}`);
  await time("audit of one target", "GET", "/dashboard/api/admin/audit?target=user-4242");
  await time("audit of one actor", "GET", "/dashboard/api/admin/audit?actor=console:user-3");
  await time("POST user limits", "POST", "/dashboard/api/admin/users/user-4242/limits", (k) => ({ per_minute: k + 1 }));
  await time("POST user plan", "POST", "/dashboard/api/admin/users/user-4242/plan", (k) => ({ plan: k % 2 ? "team" : "free" }));
  await time("POST user disable", "POST", "/dashboard/api/admin/users/user-4242/disable", () => ({}));
  await time("POST user enable", "POST", "/dashboard/api/admin/users/user-4242/enable", () => ({}));
  await time("POST user revoke-tokens", "POST", "/dashboard/api/admin/users/user-4243/revoke-tokens", () => ({}));
  await time("POST plan edit", "POST", "/dashboard/api/admin/plans/team", (k) => ({ per_day: 1000 + k }));
  await db?.close();
  await s.stop();
  await stopPg();
}

for (const kind of values.kind ? [values.kind as "sqlite" | "postgres"] : (["sqlite", "postgres"] as const)) await bench(kind);
process.exit(0);
