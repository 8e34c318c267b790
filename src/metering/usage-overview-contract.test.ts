/**
 * The console's usage overview (usage-overview.ts over usage-port.ts), the same cases on SQLite and
 * PostgreSQL: per UTC day the `usage` report's three counts (the report is the reference) plus
 * refunds and 5xx, the rankings by admitted requests and by compute time, refusals per code with
 * the unauthenticated ones, and a page of users' counts today and over 30 days.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, emptiedBackends, KINDS, type Backend } from "../../test/support/both-databases.ts";
import { pgUsagePort } from "../../db/pg/usage-statements.ts";
import { sqliteUsagePort } from "../../db/sqlite/usage-statements.ts";
import { createUsageOverview } from "./usage-overview.ts";
import { createUsageReport, type Tally } from "./usage-report.ts";
import type { UsagePort } from "./usage-port.ts";

afterAll(closeBackends);

const D1 = Date.parse("2026-11-01T00:00:00Z");
const DAY = 86_400_000;
const NOW = D1 + 2 * DAY + 10 * 3_600_000;
const fresh = emptiedBackends(["request_log", "unauthenticated_counts"]);

type Row = [
  requestId: string,
  userId: string | null,
  ts: number,
  status: number | null,
  durationMs: number | null,
  counted: number,
  code: string | null,
  params: string,
  bootId: string | null,
];

const ok = (user: string, ts: number, ms: number): Row => ["r", user, ts, 200, ms, 1, null, "", "boot"];

/** Every outcome a row can have, over three days and the day before them. */
const ROWS: Row[] = [
  ok("ann", D1 - 3_600_000, 50), // before the three days: left out of the overview, in the 30 days
  ok("ann", D1 + 1000, 10),
  ok("ann", D1 + 2000, 10),
  ["r", "ann", D1 + 3000, 500, 5, 0, "INTERNAL_ERROR", "", "boot"], // refunded server fault
  ["r", null, D1 + 4000, 401, 1, 0, "UNAUTHORIZED", "", null], // no user: in no day
  ["r", "ann", D1 + DAY + 1000, 499, 2, 0, "CLIENT_CLOSED_REQUEST", "", "boot"], // refunded, client gone
  ok("bob", D1 + DAY + 2000, 100),
  ["r", "bob", D1 + DAY + 3000, 429, 0.1, 0, "RATE_LIMITED", "", null],
  ["r", "bob", D1 + DAY + 4000, 429, 0.1, 0, "RATE_LIMITED", "", null],
  ok("ann", D1 + 2 * DAY + 1000, 10),
  ["aggregated", "bob", D1 + 2 * DAY + 2000, 429, null, 0, "DAILY_QUOTA_EXCEEDED", '{"aggregated":5}', null], // stands for 5
  ["r", "carol", D1 + 2 * DAY + 3000, 400, 1, 0, "BAD_REQUEST", "", null],
  ["r", "carol", D1 + 2 * DAY + 4000, null, null, 0, "UNANSWERED", "", "boot"], // refunded at start, never answered
  ["r", "dave", D1 + 2 * DAY + 5000, 503, 1, 0, "SERVICE_UNAVAILABLE", "", null], // refused before admission
];

async function fill(b: Backend): Promise<void> {
  const q =
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params, boot_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
  const counts = "INSERT INTO unauthenticated_counts (minute, code, count) VALUES ($1, $2, $3)";
  for (const r of ROWS) {
    if (b.kind === "sqlite") b.sqlite.sqlite.query(q.replace(/\$(\d)/g, "?$1")).run(...r);
    else await b.pg.sql.unsafe(q, r);
  }
  if (b.kind === "sqlite") b.sqlite.sqlite.query(counts.replace(/\$(\d)/g, "?$1")).run(D1 + DAY, "UNAUTHORIZED", 7);
  else await b.pg.sql.unsafe(counts, [D1 + DAY, "UNAUTHORIZED", 7]);
}

const portOf = (b: Backend): UsagePort => (b.kind === "sqlite" ? sqliteUsagePort(b.sqlite.sqlite) : pgUsagePort(b.pg.sql));

const sumOf = (rows: Tally[]): Tally => ({
  admitted: rows.reduce((n, r) => n + r.admitted, 0),
  refused: rows.reduce((n, r) => n + r.refused, 0),
  uncounted: rows.reduce((n, r) => n + r.uncounted, 0),
});

describe.each(KINDS)("the usage overview on %s", (kind) => {
  test("each day has the usage report's counts, and its refunds and 5xx; days without rows are zeros", async () => {
    const b = await fresh(kind);
    await fill(b);
    const port = portOf(b);
    const o = await createUsageOverview(port).overview(4, NOW);
    const report = await createUsageReport(port).known(D1 - DAY, undefined);
    expect(o.days.map((d) => d.day)).toEqual(["2026-10-31", "2026-11-01", "2026-11-02", "2026-11-03"]);
    for (const d of o.days) {
      const { admitted, refused, uncounted } = d;
      expect({ admitted, refused, uncounted }).toEqual(sumOf(report.filter((r) => r.day === d.day)));
    }
    expect(o.days.map((d) => [d.refunded, d.serverErrors])).toEqual([
      [0, 0],
      [1, 1],
      [1, 0],
      [1, 1],
    ]);
    expect(o.days[0]).toEqual({ day: "2026-10-31", admitted: 1, refused: 0, uncounted: 0, refunded: 0, serverErrors: 0 });
  });

  test("the rankings, refusals per code (unauthenticated included) and totals cover the days asked only", async () => {
    const b = await fresh(kind);
    await fill(b);
    const o = await createUsageOverview(portOf(b)).overview(3, NOW);
    expect(o.days).toHaveLength(3);
    expect(o.topUsers).toEqual([
      { user: "ann", admitted: 3, computeMs: 37 },
      { user: "bob", admitted: 1, computeMs: 100 },
    ]);
    expect(o.computeByUser.map((u) => u.user)).toEqual(["bob", "ann"]);
    expect(o.refusedByCode).toEqual([
      { code: "UNAUTHORIZED", requests: 7 },
      { code: "DAILY_QUOTA_EXCEEDED", requests: 5 },
      { code: "RATE_LIMITED", requests: 2 },
    ]);
    expect(o.totals).toEqual({ admitted: 4, refused: 7, uncounted: 4, refunded: 3, serverErrors: 2, computeMs: 137 });
  });

  test("read a few ids at a time, the overview is the same", async () => {
    const b = await fresh(kind);
    await fill(b);
    const whole = await createUsageOverview(portOf(b)).overview(4, NOW);
    for (const chunk of [1, 2, 5]) expect(await createUsageOverview(portOf(b), chunk).overview(4, NOW)).toEqual(whole);
  });

  test("an empty log gives every day as zeros and empty rankings", async () => {
    const b = await fresh(kind);
    const o = await createUsageOverview(portOf(b)).overview(2, NOW);
    expect(o.days.map((d) => d.admitted + d.refused + d.uncounted + d.refunded + d.serverErrors)).toEqual([0, 0]);
    expect([o.topUsers, o.computeByUser, o.refusedByCode]).toEqual([[], [], []]);
  });

  test("a page of users gets today's and the 30 days' counts as the usage report has them; an idle user zeros", async () => {
    const b = await fresh(kind);
    await fill(b);
    const port = portOf(b);
    const users = await createUsageOverview(port).ofUsers(["ann", "bob", "zed"], NOW);
    const report = createUsageReport(port);
    for (const id of ["ann", "bob", "zed"]) {
      const rows = await report.known(D1 + 2 * DAY - 29 * DAY, id);
      expect(users.get(id)).toEqual({ today: sumOf(rows.filter((r) => r.day === "2026-11-03")), last30Days: sumOf(rows) });
    }
    expect(users.get("ann")!.last30Days.admitted).toBe(4);
    expect(users.get("zed")).toEqual({
      today: { admitted: 0, refused: 0, uncounted: 0 },
      last30Days: { admitted: 0, refused: 0, uncounted: 0 },
    });
  });
});
