import { expect, test } from "bun:test";
import { OidcMemoryStore } from "./oidc-memory-store.ts";
import { startDevIdp } from "./dev-idp.ts";

test("entries and bytes stay under the bounds, the oldest going first; expiry, uid and grant lookups hold", async () => {
  let now = 0;
  const store = new OidcMemoryStore({ entries: 100, bytes: 64 * 1024 }, () => now);
  const Interaction = store.adapterClass() as new (m: string) => any;
  const interactions = new Interaction("Interaction");
  const sessions = new Interaction("Session");
  for (let i = 0; i < 5000; i++) await interactions.upsert(`i${i}`, { uid: `u${i}`, params: "x".repeat(100) }, 3600);
  expect(store.size().entries).toBeLessThanOrEqual(100);
  expect(store.size().bytes).toBeLessThanOrEqual(64 * 1024);
  expect(await interactions.find("i0")).toBeUndefined(); // the oldest went
  expect(await interactions.find("i4999")).toMatchObject({ uid: "u4999" });
  expect(await interactions.findByUid("u4999")).toMatchObject({ uid: "u4999" });
  expect(await interactions.findByUid("u0")).toBeUndefined();
  await sessions.upsert("s1", { uid: "su1", grantId: "g1" }, 10);
  await interactions.upsert("c1", { grantId: "g1" }, 10);
  await interactions.revokeByGrantId("g1");
  expect(await sessions.find("s1")).toBeUndefined();
  expect(await interactions.find("c1")).toBeUndefined();
  await sessions.upsert("s2", { uid: "su2" }, 10);
  now = 11_000;
  expect(await sessions.find("s2")).toBeUndefined(); // expired
});

test("the development provider under 1,000 anonymous sign-in starts (five times its entry bound) stays within its bounds", async () => {
  const idp = await startDevIdp({
    host: "127.0.0.1",
    port: 0,
    clientId: "c",
    clientSecret: "s",
    redirectUris: ["http://127.0.0.1:1/auth/callback"],
    storeLimits: { entries: 200, bytes: 256 * 1024 },
  });
  try {
    const auth = `${idp.issuer}/auth?client_id=c&response_type=code&scope=openid&redirect_uri=${encodeURIComponent("http://127.0.0.1:1/auth/callback")}&code_challenge=${"a".repeat(43)}&code_challenge_method=S256&state=x`;
    for (let i = 0; i < 1000; i += 50) {
      const statuses = await Promise.all(Array.from({ length: 50 }, () => fetch(auth, { redirect: "manual" }).then((r) => r.status)));
      expect(statuses.every((s) => s === 303 || s === 302)).toBe(true);
    }
    expect(idp.stored().entries).toBeLessThanOrEqual(200);
    expect(idp.stored().entries).toBeGreaterThan(150); // filled up to its bounds (200 entries, 260 kB here), the oldest going
    expect(idp.stored().bytes).toBeLessThanOrEqual(256 * 1024);
  } finally {
    await idp.stop();
  }
}, 60_000);
