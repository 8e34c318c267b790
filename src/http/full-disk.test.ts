/**
 * Issue #12 item 13: with the database on a full volume every paying user's live request got
 * 500 INTERNAL_ERROR while /health said ok. On a real size-limited tmpfs (mounted by the test,
 * as root; skipped elsewhere): writes that fail give 503 with Retry-After and the rate-limit
 * headers, /health reports the failing write, nothing admitted is lost, and service resumes by
 * itself once space returns.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { body, sampleDb, startHarness } from "../../test/support/http/harness.ts";

const MOUNT = mkdtempSync(join(tmpdir(), "gs-full-"));
const canMount = process.getuid?.() === 0 && Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", MOUNT]).exitCode === 0;

afterAll(() => {
  if (canMount) Bun.spawnSync(["umount", "-l", MOUNT]);
  rmSync(MOUNT, { recursive: true, force: true });
});

/** Writes a file until the volume refuses (ENOSPC); returns its path. */
function fillVolume(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    closeSync(fd);
  }
  return path;
}

test.skipIf(!canMount)(
  "a full disk: 503 with Retry-After and rate-limit headers, /health 503 naming the failing write, nothing admitted lost, recovery by itself",
  async () => {
    mkdirSync(join(MOUNT, "db"));
    const db = sampleDb(join(MOUNT, "db", "graph-stats.sqlite"));
    const h = await startHarness({ ratePerMinute: "1000", ratePerDay: "1000" }, { dbPath: db });
    try {
      const token = await h.token("payer");
      expect((await h.get("/v1/graph-stats/chart?lookback=20", { token })).status).toBe(200);
      const filler = fillVolume(MOUNT);
      const statuses: number[] = [];
      let refused: Response | null = null;
      for (let i = 0; i < 400 && !refused; i++) {
        const res = await h.get(`/v1/graph-stats/chart?lookback=${21 + (i % 200)}&step=${1 + Math.floor(i / 200)}`, { token });
        statuses.push(res.status);
        if (res.status !== 200) refused = res;
        else await res.arrayBuffer();
      }
      expect(refused).not.toBeNull();
      const r = refused!;
      const b = await body(r);
      expect([r.status, b.errors[0].code]).toEqual([503, "SERVICE_UNAVAILABLE"]);
      expect(b.errors[0].message).toMatch(/disk|storage|write/i);
      expect(r.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(r.headers.get("x-ratelimit-limit")).toBe("1000");
      expect(r.headers.get("x-ratelimit-daily-remaining")).toMatch(/^\d+$/);

      const health = await h.get("/health");
      const hb = await body(health);
      expect(health.status).toBe(503);
      expect(hb.errors[0].code).toBe("SERVICE_UNAVAILABLE");
      expect(hb.meta.checks.database).toMatch(/write.*(full|disk)/i);

      rmSync(filler);
      // Writes are tried again by themselves: /health (unmetered) is asked until they succeed.
      let healed = await h.get("/health");
      for (let i = 0; i < 150 && healed.status !== 200; i++) healed = await Bun.sleep(100).then(() => h.get("/health"));
      expect(healed.status).toBe(200);
      const again = await h.get("/v1/graph-stats/chart?lookback=300", { token });
      expect(again.status).toBe(200);

      // Every 200 is counted, once; no refusal is.
      const served = statuses.filter((s) => s === 200).length + 2;
      await h.stop();
      const read = new Database(db, { readonly: true });
      try {
        expect(read.query("SELECT count(*) AS n FROM request_log WHERE user_id = 'payer' AND counted = 1").get()).toEqual({ n: served });
        expect(read.query("SELECT count(*) AS n FROM request_log WHERE user_id = 'payer' AND counted = 1 AND status = 200").get()).toEqual({
          n: served,
        });
        expect(read.query("SELECT sum(admitted) AS n FROM usage_days WHERE user_id = 'payer'").get()).toEqual({ n: served });
        expect(read.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      } finally {
        read.close();
      }
    } finally {
      await h.stop().catch(() => {});
    }
  },
  { timeout: 120_000 },
);
