/**
 * Issue #12 item 8: a token passed in the query string (`?access_token=<jwt>`) was written
 * verbatim into the audit log. Real server, real token, then the database file read directly.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { startHarness } from "../../test/support/http/harness.ts";

test("credentials in the query string are stored redacted in the audit log, (unknown parameters are refused with 400, and the refusal is audited)", async () => {
  const h = await startHarness();
  try {
    const token = await h.token("leaky-user");
    const statuses: number[] = [];
    for (const query of [`lookback=20&access_token=${token}`, `lookback=21&Password=hunter2&API-KEY=k-123`, `lookback=zz&jwt=${token}`]) {
      statuses.push((await h.get(`/v1/graph-stats/chart?${query}`, { token })).status);
    }
    expect(statuses).toEqual([400, 400, 400]);
    const db = new Database(h.config.db, { readonly: true });
    try {
      // A refusal's audit row is queued and written within about a second (issue #12 item 7).
      const rowsNow = () =>
        db.query("SELECT params FROM request_log WHERE user_id = 'leaky-user' ORDER BY id").all() as { params: string }[];
      for (const deadline = Date.now() + 3000; rowsNow().length < 3 && Date.now() < deadline; ) await Bun.sleep(50);
      const rows = rowsNow();
      expect(rows.map((r) => r.params)).toEqual([
        "lookback=20&access_token=[redacted]",
        "lookback=21&Password=[redacted]&API-KEY=[redacted]",
        "lookback=zz&jwt=[redacted]",
      ]);
      const leaked = db
        .query("SELECT count(*) AS n FROM request_log WHERE params LIKE ? OR params LIKE '%hunter2%' OR params LIKE '%k-123%'")
        .get(`%${token.slice(-20)}%`) as { n: number };
      expect(leaked.n).toBe(0);
    } finally {
      db.close();
    }
  } finally {
    await h.stop();
  }
});
