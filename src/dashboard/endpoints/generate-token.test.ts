import { expect, test } from "bun:test";
import { createMetrics } from "../../http/metrics.ts";
import { AccountError } from "../account.ts";
import type { DashboardContext } from "./context.ts";
import { generateToken } from "./generate-token.ts";

/** The endpoint over a context whose guards pass and whose account mints or refuses as told. */
function endpoint(refuse: boolean) {
  const metrics = createMetrics({ computeQueueDepth: () => 0, cacheBytes: () => 0, dbConnectionsInUse: () => 0 });
  const c = {
    authorizeChange: async () => ({ id: "s", session: { userId: "u1" } }),
    userOf: async () => ({ id: "u1", email: null, disabled: false }),
    json: (_r: Request, _s: unknown, data: unknown, status: number) => Response.json(data, { status }),
    d: {
      app: { metrics, logger: { info() {} } },
      account: {
        generate: async () => {
          if (refuse) throw new AccountError("token-limit", "at most 10 tokens an hour", 60);
          return { jti: "j1", token: "t" };
        },
      },
    },
  } as unknown as DashboardContext;
  const state = { requestId: "r", userId: null } as never;
  return { metrics, call: () => generateToken(c)(new Request("http://x/dashboard/api/tokens", { method: "POST" }), state) };
}

test("a generated token is counted in graphstats_tokens_generated_total; a refused one is not", async () => {
  const ok = endpoint(false);
  expect((await ok.call()).status).toBe(201);
  expect(await ok.metrics.render()).toContain("graphstats_tokens_generated_total 1");
  const refused = endpoint(true);
  await expect(refused.call()).rejects.toThrow("at most 10 tokens");
  expect(await refused.metrics.render()).toContain("graphstats_tokens_generated_total 0");
});
