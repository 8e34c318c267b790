/** The usage report, case for case the same on SQLite and PostgreSQL (usage-report.ts over each database's port). */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, KINDS, openBackend } from "../../test/support/both-databases.ts";
import { createUsageReport, type UsageRow } from "./usage-report.ts";
import { pgUsagePort } from "../../db/pg/usage-statements.ts";
import { sqliteUsagePort } from "../../db/sqlite/usage-statements.ts";
import { DAY_MS } from "./windows.ts";

afterAll(closeBackends);

const D1 = Date.parse("2026-11-21T00:00:00Z");
const D2 = D1 + DAY_MS;
const HOUR = 3600_000;

type Row = [
  user: string | null,
  ts: number,
  status: number | null,
  counted: 0 | 1,
  requestId?: string,
  params?: string,
  durationMs?: number,
];

describe.each(KINDS)("on %s", (kind) => {
  const setup = async () => {
    const b = await openBackend(kind);
    const report = createUsageReport(b.kind === "sqlite" ? sqliteUsagePort(b.sqlite.sqlite) : pgUsagePort(b.pg.sql));
    const exec = async (q: string) => void (b.kind === "sqlite" ? b.sqlite.sqlite.exec(q) : await b.pg.sql.unsafe(q));
    const lit = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : `'${v}'`);
    /** Audit rows in this id order. */
    const log = (rows: Row[]) =>
      exec(`INSERT INTO request_log (request_id, user_id, ts, status, counted, params, duration_ms) VALUES
        ${rows.map(([u, ts, st, c, rid = "r", p = "", ms = null]) => `(${lit(rid)}, ${lit(u)}, ${ts}, ${lit(st)}, ${c}, ${lit(p)}, ${lit(ms)})`).join(", ")}`);
    const counts = (rows: [minute: number, code: string, count: number][]) =>
      exec(
        `INSERT INTO unauthenticated_counts (minute, code, count) VALUES ${rows.map((r) => `(${r[0]}, '${r[1]}', ${r[2]})`).join(", ")}`,
      );
    const sorted = (rows: UsageRow[]) =>
      [...rows].sort(
        (a, b) => a.day.localeCompare(b.day) || (a.user ?? "").localeCompare(b.user ?? "") || (a.code ?? "").localeCompare(b.code ?? ""),
      );
    return { report, log, counts, sorted };
  };

  test("per user and UTC day: admitted, refused (429) and uncounted, an aggregated row weighing its n, an unanswered refund none", async () => {
    const { report, log, sorted } = await setup();
    await log([
      ["alice", D1 - 1, 200, 1], // before `since`
      ["alice", D1 + HOUR, 200, 1, "r", "", 12.5],
      ["alice", D1 + HOUR + 1, 429, 0, "r", "", 1], // refused: no compute
      ["alice", D1 + HOUR + 2, 503, 0],
      ["alice", D1 + HOUR + 3, null, 1], // still open: admitted
      ["alice", D1 + HOUR + 4, null, 0], // unanswered, refunded at start
      ["bob", D1 + 2 * HOUR, 200, 1, "r", "", 8],
      [null, D1 + 2 * HOUR, 401, 0],
      ["alice", D2 + HOUR, 400, 0],
      ["alice", D2 + HOUR, 403, 0, "aggregated", '{"aggregated":5}'],
      ["alice", D2 + HOUR, 429, 0, "aggregated", '{"aggregated":3}'],
    ]);
    expect(sorted(await report.known(D1, undefined))).toEqual([
      { user: "alice", day: "2026-11-21", admitted: 2, refused: 1, uncounted: 1, computeMs: 12.5 },
      { user: "bob", day: "2026-11-21", admitted: 1, refused: 0, uncounted: 0, computeMs: 8 },
      { user: "alice", day: "2026-11-22", admitted: 0, refused: 3, uncounted: 6, computeMs: 0 },
    ]);
    expect((await report.known(D2, "alice")).map((r) => r.day)).toEqual(["2026-11-22"]);
    expect(await report.known(D1, "nobody")).toEqual([]);
  });

  test("rows out of id order across midnight (an audit row written after the next day's) count on their own day", async () => {
    const { report, log } = await setup();
    await log([
      ["u", D1 + 23 * HOUR, 200, 1, "r", "", 3],
      ["u", D2 + 1000, 200, 1, "r", "", 4],
      ["u", D2 - 1000, 400, 0, "r", "", 2], // the audit queue wrote it a second later
      ["u", D2 + 2000, 200, 1, "r", "", 5],
    ]);
    expect(await report.known(D1, undefined)).toEqual([
      { user: "u", day: "2026-11-21", admitted: 1, refused: 0, uncounted: 1, computeMs: 3 },
      { user: "u", day: "2026-11-22", admitted: 2, refused: 0, uncounted: 0, computeMs: 9 },
    ]);
  });

  test("unauthenticated requests per UTC day and code since `since`; an empty log reports nothing", async () => {
    const { report, counts, sorted } = await setup();
    expect(await report.anonymous(D1)).toEqual([]);
    expect(await report.known(D1, undefined)).toEqual([]);
    await counts([
      [D1 - 60_000, "UNAUTHORIZED", 9],
      [D1, "UNAUTHORIZED", 2],
      [D1 + 60_000, "UNAUTHORIZED", 1],
      [D2 - 60_000, "INVALID_TOKEN", 4],
      [D2, "UNAUTHORIZED", 1],
    ]);
    expect(sorted(await report.anonymous(D1))).toEqual([
      { user: null, day: "2026-11-21", admitted: 0, refused: 0, uncounted: 4, code: "INVALID_TOKEN" },
      { user: null, day: "2026-11-21", admitted: 0, refused: 0, uncounted: 3, code: "UNAUTHORIZED" },
      { user: null, day: "2026-11-22", admitted: 0, refused: 0, uncounted: 1, code: "UNAUTHORIZED" },
    ]);
  });
});
