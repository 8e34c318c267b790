/**
 * A database condition met by any store, not only the meter, is 503 with Retry-After on both
 * databases (docs/api.md § Errors): drizzle wraps the driver's error (its SQLSTATE or SQLite code
 * in `.cause`), and on PostgreSQL that wrapper was answered 500 INTERNAL_ERROR.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDatabase } from "../../db/sqlite/open.ts";
import { users } from "../../db/sqlite/schema.ts";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import { body, startHarness, type Harness } from "../../test/support/http/harness.ts";
import { toHttpError } from "./http-error.ts";

const LIVE = "/v1/graph-stats/chart?lookback=60&graph_method=mst";

describe("PostgreSQL", () => {
  let pgdb: TestDatabase;
  let h: Harness;
  let admin: SQL;
  beforeAll(async () => {
    pgdb = await startPostgres({ sample: true });
    h = await startHarness({ databaseUrl: pgdb.url, sample: true, dbStatementTimeout: 300 });
    admin = new SQL(pgdb.url, { max: 2 });
  });
  afterAll(async () => {
    await h?.stop();
    await admin?.close();
    await pgdb?.stop();
  });

  /** Runs `fn` while another session holds `table` locked. */
  async function whileLocked<T>(table: "users" | "tokens", fn: () => Promise<T>): Promise<T> {
    const holder = await admin.reserve();
    try {
      await holder`BEGIN`;
      await holder.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      return await fn();
    } finally {
      await holder`ROLLBACK`;
      holder.release();
    }
  }

  /**
   * A live request's status (and, if not 200, its error), asked again while 503 for up to 40 s: the
   * first one reads the sample's bars from a cold database, which on a busy machine may outlast the
   * 300 ms statement timeout (in one CI run 20 s of asking did not do, beside a container build).
   */
  async function answeredOnce(token: string): Promise<string> {
    const deadline = performance.now() + 40_000;
    for (;;) {
      const res = await h.handle(LIVE, { token });
      if (res.status === 200) return "200";
      const b = await body(res);
      if (res.status !== 503 || performance.now() > deadline) return `${res.status} ${b.errors[0]?.code}: ${b.errors[0]?.message}`;
    }
  }

  for (const table of ["users", "tokens"] as const) {
    test(`${table} locked beyond the statement timeout: every live request is 503 with Retry-After, none 500`, async () => {
      const token = await h.token(`locked-${table}`);
      const statuses = await whileLocked(table, () =>
        Promise.all(
          Array.from({ length: 6 }, async () => {
            const res = await h.handle(LIVE, { token });
            const b = await body(res);
            return `${res.status} ${b.errors[0]?.code} retry-after=${res.headers.get("retry-after") !== null}`;
          }),
        ),
      );
      expect(statuses).toEqual(Array(6).fill("503 SERVICE_UNAVAILABLE retry-after=true"));
    });
  }

  test("PostgreSQL stopped: the dashboard's session lookup and a newcomer's live request are 503 with Retry-After", async () => {
    const token = await h.token("outage");
    expect(await answeredOnce(token)).toBe("200");
    await pgdb.server.stop();
    try {
      // A well-formed session id, so the store is asked (a malformed one is refused without it).
      const res = await h.handle("/dashboard/api/state", { headers: { Cookie: `gs_session=${"s".repeat(43)}` } });
      expect([res.status, res.headers.get("retry-after") !== null]).toEqual([503, true]);
      const live = await h.handle(LIVE, { token: await h.token("newcomer-in-outage") });
      expect(live.status).toBe(503);
      expect(live.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await pgdb.server.start();
    }
  });
});

test("SQLite: a drizzle query refused by another connection's write lock is 503 with Retry-After", () => {
  const path = join(mkdtempSync(join(tmpdir(), "gs-busy-")), "busy.sqlite");
  const holder = openDatabase(path);
  const waiter = openDatabase(path, { busyTimeoutMs: 0 });
  try {
    holder.sqlite.exec("BEGIN IMMEDIATE");
    let thrown: unknown;
    try {
      waiter.db.update(users).set({ disabled: true }).where(eq(users.id, "someone")).run();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeDefined();
    const answer = toHttpError(thrown, "req-1");
    expect([answer.status, answer.errors[0]!.code, answer.headers["Retry-After"]]).toEqual([503, "SERVICE_UNAVAILABLE", "1"]);
  } finally {
    holder.sqlite.exec("ROLLBACK");
    holder.sqlite.close();
    waiter.sqlite.close();
  }
});
