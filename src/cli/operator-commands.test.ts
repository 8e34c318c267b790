/**
 * The operator's commands (docs/operator.md): plans, a user's plan and admin flag, users found by id
 * or e-mail, a user's tokens revoked, and the audit log they all write — run in this process
 * (test/support/cli-in-process.ts) on the database of a real server handling live requests, whose
 * rate-limit headers say a change at the next request. Both databases' statements are
 * src/admin/admin-contract.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";
import { type Harness, SECRET, startHarness } from "../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ computeThreads: 0 });
});
afterAll(() => h?.stop());

const NO_CONFIG = { GRAPH_STATS_RATE_PER_MINUTE: "", GRAPH_STATS_RATE_PER_DAY: "", USER: "ops" };
const cli = (...args: string[]) => runCliInProcess([...args, "--db", h.config.db], NO_CONFIG);
const LIVE = "/v1/graph-stats/chart?lookback=20";

async function limitsOnNextRequest(token: string): Promise<[string | null, string | null]> {
  const res = await h.handle(LIVE, { token });
  await res.arrayBuffer();
  h.clock.tick(61_000); // past the minute window, so the next request is admitted whatever the limit
  return [res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-daily-limit")];
}

describe("plans", () => {
  test("a plan's limits, and each change to them, hold from the user's next request; its own limits override", async () => {
    const token = await h.token("pia", { email: "Pia@Lab.example", ttlSeconds: 10 * 365 * 86_400 });
    expect(await limitsOnNextRequest(token)).toEqual(["1", "30"]);
    expect((await cli("user", "create", "pia", "--email", "Pia@Lab.example")).code).toBe(0);
    expect((await cli("plan", "create", "lab", "--per-minute", "10", "--per-day", "1000")).stdout).toContain("plan lab created");
    const assigned = await cli("user", "plan", "pia@lab.example", "lab");
    expect([assigned.code, assigned.stdout.trim()]).toEqual([0, "user pia: plan lab, per_minute 10 (plan), per_day 1000 (plan)"]);
    expect(await limitsOnNextRequest(token)).toEqual(["10", "1000"]);
    await cli("plan", "set", "lab", "--per-day", "2000");
    expect(await limitsOnNextRequest(token)).toEqual(["10", "2000"]);
    await cli("user", "limits", "pia", "--per-minute", "3");
    expect(await limitsOnNextRequest(token)).toEqual(["3", "2000"]);
    // Each admitted request carries its plan and estimated cost into the billing export.
    const events = (await cli("usage", "export", "--since", "2026-11-22")).stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const pias = events.filter((e) => e.subject === "pia");
    expect(pias.map((e) => e.data.plan)).toEqual(["free", "lab", "lab", "lab"]);
    expect(pias.every((e) => e.data.status === 200 && e.data.cost_estimate_ms > 0)).toBe(true);
    const list = await cli("plan", "list");
    expect(list.stdout.split("\n").slice(0, 3)).toEqual([
      "plan\tper_minute\tper_day\tusers",
      "free\t1\t30\t0\t(the server's defaults)",
      "lab\t10\t2000\t1",
    ]);
    const inUse = await cli("plan", "delete", "lab");
    expect([inUse.code, inUse.stderr]).toEqual([1, "graph-stats: plan 'lab' has 1 user(s); move them first ('user plan USER free')\n"]);
    await cli("user", "limits", "pia", "--reset");
    await cli("user", "plan", "pia", "free");
    expect((await cli("plan", "delete", "lab")).code).toBe(0);
    await cli("plan", "set", "free", "--per-minute", "2");
    expect(await limitsOnNextRequest(token)).toEqual(["2", "30"]);
    // A first-time user is on free too, its row's limits once redefined.
    expect(await limitsOnNextRequest(await h.token("newcomer"))).toEqual(["2", "30"]);
  });

  test("usage mistakes are exit 2 before the database is touched; refusals exit 1 and say why", async () => {
    expect((await cli("plan", "create", "x", "--per-minute", "1")).code).toBe(2);
    expect((await cli("plan", "set", "x")).code).toBe(2);
    expect((await cli("user", "admin", "pia")).code).toBe(2);
    expect((await cli("user", "plan", "pia")).code).toBe(2);
    const unknown = await cli("user", "plan", "pia", "gold");
    expect([unknown.code, unknown.stderr]).toEqual([1, "graph-stats: no plan 'gold' (see 'plan list')\n"]);
    const nobody = await cli("user", "disable", "nobody@example.com");
    expect([nobody.code, nobody.stderr]).toEqual([1, "graph-stats: no user with id or e-mail 'nobody@example.com' (see 'user list')\n"]);
  });
});

describe("users", () => {
  test("admin on and off, list and show by e-mail, every token of a user revoked (its next request 401), all in the audit log", async () => {
    const token = await h.token("quinn", { email: "quinn@lab.example", ttlSeconds: 10 * 365 * 86_400 });
    expect((await cli("user", "create", "quinn", "--email", "quinn@lab.example")).code).toBe(0);
    expect((await cli("token", "create", "--user", "quinn", "--ttl", "3650d", "--jwt-secret", SECRET)).code).toBe(0);
    expect((await h.handle(LIVE, { token })).status).toBe(200);
    h.clock.tick(61_000);
    expect((await cli("user", "admin", "quinn@lab.example", "--on")).stdout.trim()).toBe("user quinn is an admin");
    const shown = JSON.parse((await cli("user", "show", "quinn@lab.example", "--json")).stdout);
    expect(shown).toMatchObject({ id: "quinn", email: "quinn@lab.example", plan: "free", admin: true, disabled: false, live_tokens: 1 });
    const listed = JSON.parse((await cli("user", "list", "LAB.example", "--json")).stdout);
    expect(listed.users.map((u: { id: string }) => u.id)).toEqual(["pia", "quinn"]);
    const revoked = await cli("user", "revoke-tokens", "quinn@lab.example");
    expect(revoked.stdout).toStartWith("user quinn: 1 live token(s) revoked: ");
    // The harness's token was never minted by the CLI, so revoke it by jti as an operator would.
    const jti = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))).jti;
    expect((await cli("token", "revoke", jti)).code).toBe(1); // minted elsewhere: recorded, and said so
    expect((await h.handle(LIVE, { token })).status).toBe(401);
    await cli("user", "admin", "quinn", "--off");
    const audit = JSON.parse((await cli("audit", "--target", "quinn@lab.example", "--json")).stdout);
    expect(audit.map((e: { action: string }) => e.action)).toEqual([
      "user.admin.off",
      "user.revoke-tokens",
      "user.admin.on",
      "token.create",
      "user.create",
    ]);
    expect(audit[0]).toMatchObject({ actor: expect.stringMatching(/^cli:/), before: { admin: true }, after: { admin: false } });
    const text = await cli("audit", "--limit", "2");
    expect(text.stdout.split("\n")[0]).toBe("time (UTC)\tactor\taction\ttarget\tbefore\tafter");
    expect(text.stdout.split("\n")[1]).toContain("\tuser.admin.off\tquinn\t");
  });
});
