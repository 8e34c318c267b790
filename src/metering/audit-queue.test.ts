import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { createAuditQueue, type AuditRow } from "./audit-queue.ts";
import { sqliteAuditStatements } from "./audit-statements-sqlite.ts";
import { createSqliteMeter } from "./meter-sqlite.ts";

const T = Date.parse("2026-11-22T10:00:00Z");
const path = () => join(mkdtempSync(join(tmpdir(), "gs-audit-queue-")), "q.sqlite");
const row = (i: number, over: Partial<AuditRow> = {}): AuditRow => ({
  requestId: `r${i}`,
  userId: "alice",
  ts: T + i,
  status: 400,
  code: "BAD_REQUEST",
  params: `lookback=${"9".repeat(100)}`,
  durationMs: 0.5,
  ...over,
});

test("past its byte bound the queue aggregates per minute, user, status and code instead of dropping; flush writes rows and groups", () => {
  const { sqlite } = openDatabase(":memory:");
  const queue = createAuditQueue(4096);
  let kept = 0;
  for (let i = 0; i < 100; i++) if (queue.add(row(i))) kept++;
  queue.add(row(100, { status: 404, code: "NOT_FOUND" }));
  queue.add(row(101, { ts: T + 60_000 }));
  expect(kept).toBeGreaterThan(5);
  expect(kept).toBeLessThan(100);
  expect(queue.bytes()).toBeLessThanOrEqual(4096);
  queue.flush(sqliteAuditStatements(sqlite).writeAudit);
  const written = sqlite.query("SELECT count(*) AS n FROM request_log WHERE request_id <> 'aggregated'").get() as { n: number };
  expect(written.n).toBe(kept);
  const groups = sqlite
    .query("SELECT ts, status, code, params, counted FROM request_log WHERE request_id = 'aggregated' ORDER BY ts, status")
    .all();
  expect(groups).toEqual([
    { ts: T, status: 400, code: "BAD_REQUEST", params: JSON.stringify({ aggregated: 100 - kept }), counted: 0 },
    { ts: T, status: 404, code: "NOT_FOUND", params: '{"aggregated":1}', counted: 0 },
    { ts: T + 60_000, status: 400, code: "BAD_REQUEST", params: '{"aggregated":1}', counted: 0 },
  ]);
  expect(queue.pending()).toBe(0);
  expect(queue.bytes()).toBe(0);
});

test("flush({ noWait }) under another connection's write lock fails at once and keeps everything; the next flush writes it", async () => {
  const file = path();
  const { sqlite } = openDatabase(file, { busyTimeoutMs: 1000 });
  const meter = createSqliteMeter(sqlite, new TestClock(T));
  const admitted = await meter.admit({ userId: "alice", limits: { perMinute: 1, perDay: 10 }, requestId: "ok", params: "" });
  const denied = await meter.admit({ userId: "alice", limits: { perMinute: 1, perDay: 10 }, requestId: "no", params: "" });
  expect(admitted.ok).toBe(true);
  expect(denied.ok).toBe(false);
  meter.finishRefused(denied.logId, 7.5);
  await meter.logUnmetered({
    userId: "alice",
    requestId: "bad",
    status: 400,
    code: "BAD_REQUEST",
    params: "lookback=x&token=abc",
    durationMs: 1,
  });
  await meter.logUnmetered({ userId: null, requestId: "anon", status: 401, code: "UNAUTHORIZED", params: "", durationMs: 1 });

  const other = new Database(file);
  other.exec("BEGIN IMMEDIATE");
  const t0 = performance.now();
  await expect(meter.flush({ noWait: true })).rejects.toThrow();
  expect(performance.now() - t0).toBeLessThan(100); // busy_timeout is 1000 ms: it did not wait
  expect((sqlite.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout).toBe(1000); // restored
  other.exec("ROLLBACK");
  other.close();

  await meter.flush({ noWait: true });
  expect(sqlite.query("SELECT request_id, status, duration_ms, counted, params FROM request_log ORDER BY id").all()).toEqual([
    { request_id: "ok", status: null, duration_ms: null, counted: 1, params: "" },
    { request_id: "no", status: 429, duration_ms: 7.5, counted: 0, params: "" },
    { request_id: "bad", status: 400, duration_ms: 1, counted: 0, params: "lookback=x&token=[redacted]" },
  ]);
  expect(sqlite.query("SELECT code, count FROM unauthenticated_counts").all()).toEqual([{ code: "UNAUTHORIZED", count: 1 }]);
});

test("a batch that fails to write goes back in front of what was queued meanwhile, within the byte bound", async () => {
  const queue = createAuditQueue(800);
  for (let i = 0; i < 4; i++) queue.add(row(i)); // two rows fit, two are grouped
  const seen: string[][] = [];
  await expect(
    queue.flushAsync(async (batch) => {
      queue.add(row(9, { ts: T + 9 })); // arrives while the write is in flight
      seen.push(batch.rows.map((r) => r.requestId));
      throw new Error("database unreachable");
    }),
  ).rejects.toThrow("database unreachable");
  const written: { rows: string[]; groups: number[] }[] = [];
  await queue.flushAsync(async (batch) => {
    written.push({ rows: batch.rows.map((r) => r.requestId), groups: batch.groups.map((g) => g.n) });
  });
  // r9 arrived while two rows were in flight: they still counted, so it was grouped, not queued past the bound.
  expect(seen).toEqual([["r0", "r1"]]);
  expect(written).toEqual([{ rows: ["r0", "r1"], groups: [3] }]);
  expect([queue.pending(), queue.bytes()]).toEqual([0, 0]);
});
