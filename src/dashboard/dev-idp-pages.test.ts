/**
 * Every page the development provider shows carries the "development sign-in" mark (README.md §
 * Dashboard), its error and end-session pages included (issue #41 item 9): the real provider, in-process.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startDevIdp, type DevIdp } from "./dev-idp.ts";

const REDIRECT = "http://127.0.0.1:1/auth/callback";
let idp: DevIdp;
beforeAll(async () => {
  idp = await startDevIdp({ host: "127.0.0.1", port: 0, clientId: "c", clientSecret: "s", redirectUris: [REDIRECT] });
});
afterAll(() => idp.stop());

const MARK = "development sign-in — not for production";

test("the error page (an unknown client) carries the mark", async () => {
  const res = await fetch(`${idp.issuer}/auth?client_id=nobody&response_type=code&scope=openid&redirect_uri=${REDIRECT}`);
  expect(res.status).toBe(400);
  const page = await res.text();
  expect(page).toContain("Sign-in failed");
  expect(page).toContain(MARK);
});

/** Signs `name` in at the provider by HTTP (a cookie jar, redirects followed by hand until the redirect URI); returns the jar. */
async function signedInAtProvider(name: string): Promise<Map<string, string>> {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  const challenge = new Bun.CryptoHasher("sha256").update("v".repeat(43)).digest("base64url");
  let res = await go(
    `${idp.issuer}/auth?client_id=c&response_type=code&scope=openid&redirect_uri=${REDIRECT}&state=st&nonce=n&code_challenge=${challenge}&code_challenge_method=S256`,
  );
  for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
    const next = new URL(res.headers.get("location")!, idp.issuer).href;
    if (next.startsWith(REDIRECT)) return jar;
    res = await go(next);
    const action = /<form method="post" action="([^"]+)"/.exec(await res.clone().text())?.[1];
    if (res.status === 200 && action)
      res = await go(new URL(action, idp.issuer).href, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: `login=${name}`,
      });
  }
  throw new Error(`the sign-in at the provider did not come back to the redirect URI (last status ${res.status})`);
}

test("the end-session page and the signed-out page carry the mark, and load nothing from elsewhere", async () => {
  const jar = await signedInAtProvider("alice");
  const confirm = await fetch(`${idp.issuer}/session/end`, { headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
  expect(confirm.status).toBe(200);
  const page = await confirm.text();
  expect(page).toContain(MARK);
  expect(page).toContain('form="op.logoutForm"');
  expect(page).not.toContain("googleapis");
  const done = await fetch(`${idp.issuer}/session/end/success`);
  const donePage = await done.text();
  expect(donePage).toContain(MARK);
  expect(donePage).not.toContain("googleapis");
});
