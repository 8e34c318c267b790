/** The admin export endpoint: an admin's token streams the billing export; anyone else is refused, server-side. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runCliInProcess } from "../../../test/support/cli-in-process.ts";
import { body, type Harness, startHarness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ computeThreads: 0 });
});
afterAll(() => h?.stop());

const cli = (...args: string[]) => runCliInProcess([...args, "--db", h.config.db], { USER: "ops" });

test("an admin gets the counted requests as CloudEvents (or CSV); a non-admin 403, no token 401, a bad day 400", async () => {
  await cli("user", "create", "boss");
  await cli("user", "create", "worker");
  const worker = await h.token("worker");
  expect((await h.handle("/v1/graph-stats/chart?lookback=20", { token: worker })).status).toBe(200);
  const boss = await h.token("boss");
  const path = "/v1/admin/usage/export?since=2026-11-22";
  const refused = await h.handle(path, { token: boss });
  expect([refused.status, (await body(refused)).errors[0].code]).toEqual([403, "FORBIDDEN"]);
  expect((await h.handle(path, { token: worker })).status).toBe(403);
  expect((await h.handle(path)).status).toBe(401);
  await cli("user", "admin", "boss", "--on");
  const ok = await h.handle(path, { token: boss });
  expect([ok.status, ok.headers.get("content-type")]).toEqual([200, "application/cloudevents+json; charset=utf-8"]);
  const events = (await ok.text())
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(events.map((e) => [e.subject, e.data.status, e.specversion])).toEqual([["worker", 200, "1.0"]]);
  const csv = await h.handle(`${path}&format=csv`, { token: boss });
  expect((await csv.text()).split("\n")[0]).toBe("id,time,subject,status,cost_estimate_ms,duration_ms,plan,request_id");
  const bad = await h.handle("/v1/admin/usage/export?since=yesterday", { token: boss });
  expect([bad.status, (await body(bad)).errors[0].message]).toEqual([400, "since must be a UTC day YYYY-MM-DD, got 'yesterday'"]);
});

test("/health names the commit and the schema version the database was brought to", async () => {
  const { MIGRATIONS } = await import("../../../db/sqlite/migrations.ts");
  const data = (await body(await h.handle("/health"))).data;
  expect(data.schema).toBe(MIGRATIONS.at(-1)!.tag);
  expect(data.commit).toMatch(/^[0-9a-f]{12}$/);
});
