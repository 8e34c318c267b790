/**
 * Issue #12 item 2: requests admitted but never answered when the process died kept counting.
 * A real server process is SIGKILLed while requests are in flight; the next start refunds them,
 * logs how many, and a live process's in-flight rows are left alone.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { sampleDb, SECRET } from "../../test/support/http/harness.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";

const USER = "crash-user";
const PER_DAY = 100;
const ARGS = ["--port", "0", "--no-sample", "--default-universe", "sample", "--rate-per-minute", "50", "--rate-per-day", String(PER_DAY)];
const ENV = { GRAPH_STATS_JWT_SECRET: SECRET, GRAPH_STATS_LOG_LEVEL: "info" };

interface MeterRows {
  open: number;
  counted: number;
  admittedToday: number;
}

function meterRows(path: string): MeterRows {
  const db = new Database(path, { readonly: true });
  try {
    const q = (sql: string) => (db.query(sql).get(USER) as { n: number | null }).n ?? 0;
    return {
      open: q("SELECT count(*) AS n FROM request_log WHERE user_id = ? AND counted = 1 AND status IS NULL"),
      counted: q("SELECT count(*) AS n FROM request_log WHERE user_id = ? AND counted = 1"),
      admittedToday: q("SELECT sum(admitted) AS n FROM usage_days WHERE user_id = ?"),
    };
  } finally {
    db.close();
  }
}

/** Fires `n` distinct requests (no two share a cached result) and resolves once `atLeast` are admitted and unanswered. */
async function inFlight(server: ServerProcess, path: string, token: string, n: number, atLeast: number): Promise<MeterRows> {
  for (let i = 0; i < n; i++) {
    fetch(`${server.base}/v1/graph-stats/chart?interval=1m&lookback=${400 + i}&periods=60&corr_method=spearman`, {
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => {});
  }
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(5)) {
    const rows = meterRows(path);
    if (rows.open >= atLeast) return rows;
  }
  throw new Error("the requests were never in flight");
}

/**
 * SIGSTOPs `server` at a moment it holds no write transaction (else the next start would wait on a
 * lock it never lets go): stopped, the file is checked for a writer; if one is busy, it runs on a moment.
 */
async function stopBetweenWrites(server: ServerProcess, path: string): Promise<void> {
  const db = new Database(path);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    for (;;) {
      server.proc.kill("SIGSTOP");
      while (!/^\d+ \(.*\) T/.test(readFileSync(`/proc/${server.proc.pid}/stat`, "utf8"))) await Bun.sleep(1);
      try {
        db.exec("BEGIN IMMEDIATE");
        db.exec("ROLLBACK");
        return;
      } catch {
        server.proc.kill("SIGCONT");
        await Bun.sleep(5);
      }
    }
  } finally {
    db.close();
  }
}

test(
  "SIGKILL mid-request: the next start refunds the unanswered requests and logs how many; a live process's are kept",
  async () => {
    const db = sampleDb();
    const token = (await mintToken({ secret: SECRET, userId: USER, ttlSeconds: 3600, clock: systemClock })).token;
    const first = await spawnServer(ARGS, { env: { ...ENV, GRAPH_STATS_DB: db } });
    let second: ServerProcess | null = null;
    let third: ServerProcess | null = null;
    try {
      const before = await inFlight(first, db, token, 8, 3);
      first.proc.kill("SIGKILL");
      await first.proc.exited;
      const charged = meterRows(db);
      expect(charged.open).toBeGreaterThanOrEqual(before.open);
      expect(charged.admittedToday).toBe(charged.counted);

      second = await spawnServer(ARGS, { env: { ...ENV, GRAPH_STATS_DB: db } });
      // The second process now has requests in flight when a third starts on the same file.
      const live = await inFlight(second, db, token, 6, 2);
      // Stopped, it is still a live process with requests in flight (its pid exists), computing nothing meanwhile.
      await stopBetweenWrites(second, db);
      third = await spawnServer(ARGS, { env: { ...ENV, GRAPH_STATS_DB: db } });
      const reconciled = second.logs.map((l) => JSON.parse(l)).find((l) => l.msg?.includes("never answered"));
      expect(reconciled?.refunded).toBe(charged.open);
      expect(third.logs.some((l) => l.includes("never answered"))).toBe(false);

      const after = meterRows(db);
      expect(after.open).toBeGreaterThanOrEqual(live.open); // the second process's rows still count
      const refundedRows = new Database(db, { readonly: true });
      try {
        const n = refundedRows
          .query("SELECT count(*) AS n FROM request_log WHERE user_id = ? AND code = 'UNANSWERED' AND counted = 0")
          .get(USER) as { n: number };
        expect(n.n).toBe(charged.open);
      } finally {
        refundedRows.close();
      }
      // The day's count holds exactly what is still counted: nothing charged for the crash.
      expect(after.admittedToday).toBe(after.counted);
    } finally {
      first.proc.kill("SIGKILL");
      second?.proc.kill("SIGKILL");
      third?.proc.kill("SIGKILL");
    }
  },
  { timeout: 120_000 },
);
