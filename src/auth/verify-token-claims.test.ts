/**
 * Audit finding on token verification (docs/api.md § Tokens): only `exp` and `sub` are required
 * claims. A correctly signed HS256 token without `iat`/`jti` (e.g. from the dashboard of a later
 * step, or another tool sharing the secret) must be accepted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { SECRET, startHarness, type Harness } from "../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ratePerMinute: 100 });
});
afterAll(() => h.stop());

const PATH = "/v1/graph-stats/chart?lookback=20&include_graph=false";
const nowS = () => Math.floor(h.clock.now() / 1000);
const sign = (claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(SECRET));

describe("required claims are exp and sub only", () => {
  test("a signed token with only sub and exp is accepted", async () => {
    const token = await sign({ sub: "minimal-claims", exp: nowS() + 3600 });
    const res = await h.get(PATH, { token });
    expect(res.status).toBe(200);
  });

  test("a signed token with sub, exp and iat but no jti is accepted", async () => {
    const token = await sign({ sub: "no-jti", iat: nowS(), exp: nowS() + 3600 });
    const res = await h.get(PATH, { token });
    expect(res.status).toBe(200);
  });
});
