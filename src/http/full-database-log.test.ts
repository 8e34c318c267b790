/**
 * While the database cannot write, every live request is refused with 503; the log says so in a
 * bounded number of lines carrying the count, not one error line per refused request (60 refusals
 * wrote 57). The database is full for real: SQLite's max_page_count makes its writes fail with
 * SQLITE_FULL as a full volume does, without mounting one.
 */
import { expect, test } from "bun:test";
import { captureLogger } from "../../test/support/capture-logger.ts";
import { sampleDb, SECRET } from "../../test/support/http/harness.ts";
import { mintToken } from "../auth/index.ts";
import { TestClock } from "../clock.ts";
import { loadConfig } from "../config.ts";
import { startServer } from "../server.ts";

test("60 live requests refused by a full database: a bounded number of error lines, carrying the count", async () => {
  const clock = new TestClock(Date.parse("2026-11-22T10:00:00Z"));
  const logger = captureLogger();
  const config = loadConfig(
    {
      port: "0",
      host: "127.0.0.1",
      db: sampleDb(),
      jwtSecret: SECRET,
      defaultUniverse: "sample",
      sample: false,
      ratePerMinute: "1000",
      ratePerDay: "1000",
    },
    {},
  );
  const server = await startServer(config, logger, { clock });
  try {
    const { token } = await mintToken({ secret: SECRET, userId: "payer", ttlSeconds: 86_400, clock });
    const live = (i: number) =>
      server.handle(
        new Request(`http://127.0.0.1/v1/graph-stats/chart?lookback=${21 + i}`, { headers: { Authorization: `Bearer ${token}` } }),
      );
    expect((await live(0)).status).toBe(200);
    const sqlite = server.opened!.sqlite;
    const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    sqlite.exec(`PRAGMA max_page_count = ${pages}`);
    const before = logger.lines.length;
    let refused = 0;
    for (let i = 1; i < 400 && refused < 60; i++) {
      const res = await live(i % 200);
      await res.arrayBuffer();
      if (res.status !== 503) {
        expect(res.status).toBe(200);
        continue;
      }
      refused++;
      clock.tick(1500); // 60 refusals over 90 s of the test clock: two periods of the collapsed log
    }
    expect(refused).toBe(60);
    await server.stop(); // writes the count of the period still open
    const errors = logger.lines.slice(before).filter((l) => l.level === "error");
    expect(new Set(errors.map((l) => `${l.msg}: ${l.err}`))).toEqual(
      new Set(["live request failed: SQLiteError: database or disk is full"]),
    );
    // Each period: its first refusal with its request id, then one line counting the rest.
    expect(errors.map((l) => (l.repeated === undefined ? "request" : "count"))).toEqual(["request", "count", "request", "count"]);
    expect(typeof errors[0]!.request_id).toBe("string");
    expect(errors.reduce((n, l) => n + ((l.repeated as number | undefined) ?? 1), 0)).toBe(60);
  } finally {
    await server.stop().catch(() => {});
  }
});
