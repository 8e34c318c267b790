import { test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";

const WORKER = join(import.meta.dir, "../../test/support/metering/admit-worker.ts");
const PROCESSES = 4;
const CALLS = 50;

/** Runs PROCESSES separate bun processes against one file, all starting at the same instant. */
async function race(perMinute: number, perDay: number) {
  const path = join(mkdtempSync(join(tmpdir(), "gs-race-")), "race.sqlite");
  openDatabase(path).sqlite.close();
  const startAt = Date.now() + 1500;
  const children = Array.from({ length: PROCESSES }, () =>
    Bun.spawn([process.execPath, WORKER, path, "racer", String(perMinute), String(perDay), String(CALLS), String(startAt)], {
      stdout: "pipe",
      stderr: "pipe",
    }),
  );
  const outputs = await Promise.all(
    children.map(async (c) => {
      const [out, err, code] = await Promise.all([new Response(c.stdout).text(), new Response(c.stderr).text(), c.exited]);
      if (code !== 0) throw new Error(`worker failed (${code}): ${err}`);
      return JSON.parse(out.trim()) as { admitted: number };
    }),
  );
  const { sqlite } = openDatabase(path);
  const log = sqlite
    .query("SELECT count(*) AS total, sum(counted) AS counted, sum(status = 429) AS denied FROM request_log WHERE user_id = 'racer'")
    .get() as { total: number; counted: number; denied: number };
  sqlite.close();
  return { admitted: outputs.reduce((s, o) => s + o.admitted, 0), log };
}

test("4 processes x 50 calls with 1/minute admit exactly 1, and every call is in the audit log", async () => {
  const { admitted, log } = await race(1, 30);
  expect(admitted).toBe(1);
  expect(log).toEqual({ total: PROCESSES * CALLS, counted: 1, denied: PROCESSES * CALLS - 1 });
});

test("4 processes x 50 calls with 10/minute and 1000/day admit exactly 10", async () => {
  const { admitted, log } = await race(10, 1000);
  expect(admitted).toBe(10);
  expect(log).toEqual({ total: PROCESSES * CALLS, counted: 10, denied: PROCESSES * CALLS - 10 });
});
