/**
 * The session cookie is found in any Cookie header the server accepts (Bun's 16 KiB), among other
 * sites' cookies and beside a stale cookie of the same name, or the page says why it was refused
 * (issue #41 item 9).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startSignInServer, type SignInServer } from "../../../test/support/sign-in-server.ts";

let s: SignInServer;
let session: string;
beforeAll(async () => {
  s = await startSignInServer();
  session = (await s.signIn("ivan")).cookie;
});
afterAll(() => s.stop());

/** 9 KB of cookies from other sites on the same host, as a browser sends them. */
const others = Array.from({ length: 30 }, (_, i) => `other_${i}=${"v".repeat(300)}`).join("; ");

test("a session among 9 KB of other cookies is found, over the socket as well as in-process", async () => {
  const cookie = `${others}; ${session}`;
  expect(cookie.length).toBeGreaterThan(9000);
  expect((await s.handle("/dashboard/api/state", { headers: { Cookie: cookie } })).status).toBe(200);
  expect((await s.get("/dashboard/api/state", { headers: { Cookie: cookie } })).status).toBe(200);
});

test("a stale session cookie of the same name sent first does not hide the live one", async () => {
  const stale = `gs_session=${"A".repeat(43)}`;
  expect((await s.handle("/dashboard/api/state", { headers: { Cookie: `${stale}; ${session}` } })).status).toBe(200);
});

test("a session cookie that cannot be a session is refused with the reason on the page", async () => {
  const res = await s.handle("/dashboard", { headers: { Cookie: "gs_session=not-a-session" } });
  expect(res.status).toBe(200);
  const page = await res.text();
  expect(page).toContain("Your browser sent a session cookie this server did not issue");
  expect(res.headers.get("set-cookie")).toStartWith("gs_session=;");
});
