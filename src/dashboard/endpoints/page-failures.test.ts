/**
 * A browser's navigations (the dashboard page, sign-out) meet a busy database with a page that
 * says what happened and what to do, never the API's JSON (issue #41 item 8); sign-out either
 * ends the session or says it did not.
 */
import { afterEach, expect, test } from "bun:test";
import { startSignInServer, type SignInServer } from "../../../test/support/sign-in-server.ts";

let s: SignInServer | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

const signOut = (s: SignInServer, cookie: string, csrf: string) =>
  s.handle("/auth/logout", {
    method: "POST",
    headers: { Origin: s.base, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: `csrf=${csrf}`,
  });

test("sign-out with the database busy says the session is still on, and ends it once the database answers", async () => {
  s = await startSignInServer();
  const { cookie, csrf } = await s.signIn("frank");
  const release = s.lock();
  let refused: Response;
  try {
    refused = await signOut(s, cookie, csrf);
  } finally {
    release();
  }
  expect([refused.status, refused.headers.get("content-type")]).toEqual([503, "text/html; charset=utf-8"]);
  expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  const page = await refused.text();
  expect(page).toContain("You are still signed in");
  expect(page).toMatch(/<form method="post" action="\/auth\/logout"[^>]*>\s*<input type="hidden" name="csrf" value="[^"]+">/);
  expect(refused.headers.get("set-cookie")).toBeNull();
  // Logged once as a fault, without the statement or the session's secrets.
  const logged = JSON.stringify(s.logs.filter((l) => l.level === "error"));
  expect(logged).toContain("request failed");
  expect(logged).not.toMatch(/Failed query|delete from|params/i);
  expect(logged).not.toContain(csrf);
  // What the page said: the session still opens.
  expect((await s.handle("/dashboard/api/state", { headers: { Cookie: cookie } })).status).toBe(200);

  const ended = await signOut(s, cookie, csrf);
  expect([ended.status, ended.headers.get("location")]).toEqual([303, "/dashboard"]);
  expect((await s.handle("/dashboard/api/state", { headers: { Cookie: cookie } })).status).toBe(401);
});

test("the dashboard page with the database busy is a page saying to reload, not JSON", async () => {
  s = await startSignInServer();
  const { cookie } = await s.signIn("grace");
  s.clock.tick(61_000); // the session's last-seen time is due a write
  const release = s.lock();
  let res: Response;
  try {
    res = await s.handle("/dashboard", { headers: { Cookie: cookie } });
  } finally {
    release();
  }
  expect([res.status, res.headers.get("content-type")]).toEqual([503, "text/html; charset=utf-8"]);
  expect(await res.text()).toContain("Reload this page in a few seconds");
});

test("a refused sign-out (no CSRF token) is a page too, naming what to do", async () => {
  s = await startSignInServer();
  const { cookie } = await s.signIn("heidi");
  const res = await signOut(s, cookie, "nope");
  expect([res.status, res.headers.get("content-type")]).toEqual([403, "text/html; charset=utf-8"]);
  expect(await res.text()).toContain("reload the dashboard and try again");
});
