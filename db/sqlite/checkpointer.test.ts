import { expect, test } from "bun:test";
import { startHarness } from "../../test/support/http/harness.ts";

test("the server checkpoints the WAL from a worker thread, with automatic checkpoints off", async () => {
  const h = await startHarness({ ratePerMinute: "1000", ratePerDay: "100000" });
  try {
    const { sqlite } = h.server.opened;
    expect(sqlite.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 0 });
    const token = await h.token("ckpt-user");
    for (let i = 0; i < 20; i++) expect((await h.get("/v1/graph-stats/chart?lookback=20", { token })).status).toBe(200);
    const until = Date.now() + 5000;
    while (h.server.checkpointer.runs() < 2 && Date.now() < until) await Bun.sleep(100);
    expect(h.server.checkpointer.runs()).toBeGreaterThanOrEqual(2);
    // After a worker checkpoint, the frames written so far are in the database file.
    const r = sqlite.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number; checkpointed: number };
    expect(r.checkpointed).toBe(r.log);
  } finally {
    await h.stop();
  }
  // Stopping restores automatic checkpoints (the connection is closed; nothing dangles).
});
