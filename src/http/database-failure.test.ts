/**
 * Audit findings on "503 SERVICE_UNAVAILABLE when the database is unreachable or busy"
 * (docs/api.md § Errors, § GET /health): a database locked by another process, or a database
 * file that has been deleted under the running server.
 */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { body, startHarness } from "../../test/support/http/harness.ts";

const LOCK_SECONDS = 25;

/** Another process takes the write lock on the file and holds it; resolves once it is held. */
async function holdWriteLock(path: string, seconds: number) {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(path)});
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("CREATE TABLE IF NOT EXISTS audit_lock (x)");
    db.exec("INSERT INTO audit_lock VALUES (1)");
    console.log("locked");
    setTimeout(() => { db.exec("ROLLBACK"); db.close(); process.exit(0); }, ${seconds * 1000});
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toContain("locked");
  return proc;
}

describe("database busy (write lock held by another process)", () => {
  test(
    "the live endpoint answers 503 SERVICE_UNAVAILABLE with Retry-After while the lock is still held, and /health is not frozen behind it",
    async () => {
      const h = await startHarness();
      try {
        const token = await h.token("busy-user");
        // The user exists before the lock is taken, so only the meter's write is blocked.
        expect((await h.get("/v1/graph-stats/chart?lookback=20", { token })).status).toBe(200);
        h.clock.tick(61_000);
        const locker = await holdWriteLock(h.config.db, LOCK_SECONDS);
        try {
          const live = h
            .get("/v1/graph-stats/chart?lookback=21", { token })
            .then(async (res) => ({ res, lockHeld: locker.exitCode === null }));
          const health = h.get("/health").then(async (res) => ({ res, lockHeld: locker.exitCode === null }));
          const [l, hh] = await Promise.all([live, health]);
          expect(hh.lockHeld).toBe(true); // health answered while the other process still held the lock
          expect([200, 503]).toContain(hh.res.status);
          expect(l.lockHeld).toBe(true);
          expect(l.res.status).toBe(503);
          expect(l.res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
          expect((await body(l.res)).errors[0].code).toBe("SERVICE_UNAVAILABLE");
          // docs/api.md § Headers: a known user's 5xx carries the rate-limit headers; peeking is a read, which WAL serves under the lock.
          // The first request was admitted 61 s ago, so the window is empty and today's count is 1.
          expect(l.res.headers.get("x-ratelimit-limit")).toBe("1");
          expect(l.res.headers.get("x-ratelimit-remaining")).toBe("1");
          expect(l.res.headers.get("x-ratelimit-daily-limit")).toBe("30");
          expect(l.res.headers.get("x-ratelimit-daily-remaining")).toBe("29");
          expect(l.res.headers.get("ratelimit-policy")).toBe(`"minute";q=1;w=60, "day";q=30;w=86400`);
          expect(l.res.headers.get("ratelimit")).toBe(`"minute";r=1;t=0`);
        } finally {
          locker.kill();
          await locker.exited;
        }
      } finally {
        await h.stop();
      }
    },
    { timeout: 120_000 },
  );
});

describe("database file deleted under the running server", () => {
  test("/health reports 503 SERVICE_UNAVAILABLE naming the database, not ok", async () => {
    const h = await startHarness();
    try {
      expect((await h.get("/health")).status).toBe(200);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(h.config.db + suffix, { force: true });
      // A healthy check is reused for at most HEALTH_CHECK_MS: /health (unmetered) is asked until it notices.
      let res = await h.get("/health");
      while (res.status === 200) res = await Bun.sleep(10).then(() => h.get("/health"));
      expect(res.status).toBe(503);
      const b = await body(res);
      expect(b.errors[0].code).toBe("SERVICE_UNAVAILABLE");
      expect(b.errors[0].message).toContain("database");
    } finally {
      await h.stop();
    }
  });
});
