/**
 * Issue #41 item 3: with another process holding the SQLite write lock for 1.3 s, a client that
 * asked for a cached answer and closed its socket while admission waited was recorded 200,
 * counted 1, and its next request was 429 (the uncached one was 499, counted 0). A client gone
 * before admission finished is not admitted: audited 499, counted 0 (docs/api.md § The audit log).
 * A real server, a real second process holding the lock and letting go by itself, as in the issue.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sampleDb, startHarness, type Harness } from "../../test/support/http/harness.ts";
import { onAdmit } from "../../test/support/http/on-admit.ts";
import { holdWriteLock } from "../../test/support/write-lock-holder.ts";

const LIVE = "/v1/graph-stats/chart?lookback=60&graph_method=mst";
/** The lock: long beside the server noticing a closed socket (one turn of its loop). */
const HOLD_MS = 1300;

const path = sampleDb();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { dbPath: path });
});
afterAll(() => h.stop());

function auditRows(user: string) {
  return h.server.opened.sqlite
    .query<{ status: number | null; counted: number }, [string]>("SELECT status, counted FROM request_log WHERE user_id = ? ORDER BY id")
    .all(user);
}

const admittedToday = (user: string) =>
  h.server.opened.sqlite
    .query<{ n: number }, [string]>("SELECT coalesce(sum(admitted), 0) AS n FROM usage_days WHERE user_id = ?")
    .get(user)!.n;

test("a cached answer's client gone while admission waited for another process's lock: 499, counted 0, its next request admitted", async () => {
  // The answer is in the result cache before the lock is taken.
  expect((await h.get(LIVE, { token: await h.token("primer") })).status).toBe(200);
  const token = await h.token("leaver");
  const admitting = onAdmit(h, "leaver");
  const holder = await holdWriteLock(path, HOLD_MS);
  const socket = connect(h.server.port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.write(`GET ${LIVE} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  await admitting;
  socket.destroy();
  expect(await holder.ended()).toBe("by itself");
  // Its row is written once the lock is gone, with the next flush.
  for (let i = 0; i < 200 && auditRows("leaver").every((r) => r.status === null); i++) await Bun.sleep(25);
  expect(auditRows("leaver")).toEqual([{ status: 499, counted: 0 }]);
  expect(admittedToday("leaver")).toBe(0);
  expect((await h.get(LIVE, { token })).status).toBe(200);
});
