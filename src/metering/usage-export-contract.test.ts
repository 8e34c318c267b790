/**
 * The billing export (usage-export.ts over usage-export-port.ts), the same cases on SQLite and
 * PostgreSQL: only counted, answered rows, within the UTC days asked (both inclusive), in id order
 * over several pages, the same ids on every export, CloudEvents 1.0 fields and RFC 4180 CSV.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, emptiedBackends, KINDS, type Backend } from "../../test/support/both-databases.ts";
import { pgUsageExportPort } from "../../db/pg/usage-export-statements.ts";
import { sqliteUsageExportPort } from "../../db/sqlite/usage-export-statements.ts";
import { createPgAuthStore, createSqliteAuthStore } from "../auth/auth-stores.ts";
import { createUsageExport, CSV_HEADER, exportFormat, exportRange, type UsageExport } from "./usage-export.ts";
import type { StatusError } from "../status-error.ts";

afterAll(closeBackends);

const DAY1 = Date.parse("2026-11-01T00:00:00Z");
const HOUR = 3_600_000;
const fresh = emptiedBackends(["request_log", "settings"]);

type Row = [
  requestId: string,
  userId: string | null,
  ts: number,
  status: number | null,
  counted: number,
  cost: number | null,
  plan: string | null,
];

async function insert(b: Backend, rows: Row[]): Promise<void> {
  const q = "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, params, cost_ms, plan) VALUES ";
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    const values = part.map(
      (_, j) => `($${j * 7 + 1}, $${j * 7 + 2}, $${j * 7 + 3}, $${j * 7 + 4}, 12.5, $${j * 7 + 5}, '', $${j * 7 + 6}, $${j * 7 + 7})`,
    );
    const args = part.flat();
    if (b.kind === "sqlite") b.sqlite.sqlite.query((q + values.join(",")).replace(/\$(\d+)/g, "?$1")).run(...args);
    else await b.pg.sql.unsafe(q + values.join(","), args);
  }
}

function exportOf(b: Backend): UsageExport {
  return b.kind === "sqlite"
    ? createUsageExport(sqliteUsageExportPort(b.sqlite.sqlite), createSqliteAuthStore(b.sqlite.sqlite))
    : createUsageExport(pgUsageExportPort(b.pg.sql), createPgAuthStore(b.pg.db));
}

async function text(e: UsageExport, since: string, until: string | undefined, format: "cloudevents" | "csv"): Promise<string> {
  let out = "";
  for await (const chunk of e.chunks(exportRange(since, until, DAY1 + 40 * 24 * HOUR), format)) out += chunk;
  return out;
}

describe.each(KINDS)("the billing export on %s", (kind) => {
  test("counted, answered requests of the days asked, as CloudEvents; refunds, 429s and open rows left out; ids stable", async () => {
    const b = await fresh(kind);
    await insert(b, [
      ["before", "ann", DAY1 - 1, 200, 1, 5, "team"],
      ["ok-1", "ann", DAY1, 200, 1, 41.25, "team"],
      ["refunded", "ann", DAY1 + HOUR, 500, 0, 9, "team"],
      ["client-gone", "ann", DAY1 + HOUR, 499, 0, 9, "team"],
      ["refused", "ann", DAY1 + HOUR, 429, 0, null, null],
      ["open", "bob", DAY1 + 2 * HOUR, null, 1, 3, null],
      ["ok-2", "bob", DAY1 + 24 * HOUR + 5, 200, 1, null, null],
      ["after", "bob", DAY1 + 48 * HOUR, 200, 1, 1, null],
    ]);
    const e = exportOf(b);
    const lines = (await text(e, "2026-11-01", "2026-11-02", "cloudevents"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.data.request_id)).toEqual(["ok-1", "ok-2"]);
    const [first, second] = lines;
    expect(first).toEqual({
      specversion: "1.0",
      id: first.id,
      source: first.source,
      type: "graph-stats.request",
      subject: "ann",
      time: "2026-11-01T00:00:00.000Z",
      datacontenttype: "application/json",
      data: { status: 200, cost_estimate_ms: 41.25, duration_ms: 12.5, plan: "team", request_id: "ok-1" },
    });
    expect(first.source).toMatch(/^urn:graph-stats:[0-9a-f-]{36}$/);
    expect(second).toMatchObject({ subject: "bob", data: { plan: "free", cost_estimate_ms: null } });
    const again = (await text(exportOf(b), "2026-11-01", "2026-11-02", "cloudevents"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(again.map((l) => [l.id, l.source])).toEqual(lines.map((l) => [l.id, l.source]));
    expect(new Set(lines.map((l) => l.id)).size).toBe(2);
  });

  test("a range of many pages streams every row once, in order; CSV quotes what needs quoting", async () => {
    const b = await fresh(kind);
    const rows: Row[] = Array.from({ length: 12_003 }, (_, i) => [
      `r${i}`,
      i === 7 ? 'we,ird"user' : `u${i % 50}`,
      DAY1 + i * 1000,
      200,
      1,
      2,
      null,
    ]);
    await insert(b, rows);
    const csv = (await text(exportOf(b), "2026-11-01", undefined, "csv")).trimEnd().split("\n");
    expect(csv[0]).toBe(CSV_HEADER);
    expect(csv.length).toBe(12_004);
    expect(csv.slice(1).map((l) => l.split(",").at(-1))).toEqual(rows.map((r) => r[0]));
    expect(csv[8]).toContain(',"we,ird""user",200,2,12.5,free,r7');
    const ids = csv.slice(1).map((l) => Number(l.split(",")[0]));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });
});

test("since/until are UTC days, both inclusive; mistakes are refused naming the flag", () => {
  expect(exportRange("2026-11-01", "2026-11-01", 0)).toEqual({ from: DAY1, to: DAY1 + 24 * HOUR });
  const refused = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as StatusError).message;
    }
    return null;
  };
  expect(refused(() => exportRange("2026-02-30", undefined, 0))).toBe("since must be a UTC day YYYY-MM-DD, got '2026-02-30'");
  expect(refused(() => exportRange("2026-11-02", "2026-11-01", 0))).toBe("until (2026-11-01) is before since (2026-11-02)");
  expect(refused(() => exportRange(undefined, undefined, 0))).toBe("since is required (YYYY-MM-DD, UTC)");
  expect(refused(() => exportFormat("xml"))).toBe("format must be one of cloudevents, csv, got 'xml'");
});
