/** The AuthStore's behaviour, case for case the same on SQLite and PostgreSQL. */
import { describe, test, expect, afterAll } from "bun:test";
import { Database } from "bun:sqlite";
import { type Backend, closeBackends, freshAuthStore, KINDS, secondAuthStore } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { mintToken } from "./mint-token.ts";

afterAll(closeBackends);

describe.each(KINDS)("AuthStore on %s", (kind) => {
  test("ensureUser creates on first use, keeps the first creation time and fills a missing email", async () => {
    const { store } = await freshAuthStore(kind);
    expect(await store.getUser("alice")).toBeNull();
    expect(await store.ensureUser("alice", undefined, 100)).toEqual({
      id: "alice",
      email: null,
      disabled: false,
      perMinute: null,
      perDay: null,
      createdAt: 100,
      plan: null,
      planPerMinute: null,
      planPerDay: null,
      admin: false,
    });
    expect(await store.ensureUser("alice", "a@example.com", 200)).toMatchObject({ email: "a@example.com", createdAt: 100 });
    expect((await store.ensureUser("alice", "other@example.com", 300)).email).toBe("a@example.com");
  });

  test("issueTokenWithin: 40 concurrent calls over two connections issue exactly the limit; the refused get the issue times", async () => {
    const { store, backend } = await freshAuthStore(kind);
    const other = await secondAuthStore(backend);
    const calls = Array.from({ length: 40 }, (_, i) =>
      (i % 2 ? other : store).issueTokenWithin(
        { jti: `j${i}`, userId: "burst", issuedAt: 1000 + i, expiresAt: 10_000_000 },
        { now: 1000 + i, since: 0, max: 10 },
      ),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.filter((o) => o.issued)).toHaveLength(10);
    expect((await store.listTokens({ userId: "burst" })).length).toBe(10);
    const refused = outcomes.find((o) => !o.issued) as { issued: false; recent: number[] };
    expect(refused.recent).toHaveLength(10);
    expect([...refused.recent].sort((a, b) => a - b)).toEqual(refused.recent);
    // Outside the window the limit starts afresh.
    const later = await store.issueTokenWithin(
      { jti: "late", userId: "burst", issuedAt: 5000, expiresAt: 10_000_000 },
      { now: 5000, since: 4000, max: 10 },
    );
    expect(later).toEqual({ issued: true });
  });

  test("ensureUser of a known user with nothing to fill only reads: it answers while another connection holds the write lock", async () => {
    const { store, backend } = await freshAuthStore(kind);
    await store.ensureUser("alice", "a@example.com", 100);
    const release = await holdWriteLock(backend);
    try {
      // Answered before the lock is let go (below): a write would wait for it (PostgreSQL) or fail busy (SQLite).
      expect(await store.ensureUser("alice", "other@example.com", 200)).toMatchObject({
        id: "alice",
        email: "a@example.com",
        createdAt: 100,
      });
    } finally {
      await release();
    }
  });

  test("createUser reports an existing id instead of overwriting it", async () => {
    const { store } = await freshAuthStore(kind);
    expect(await store.createUser({ id: "bob", email: "b@example.com", now: 1 })).toMatchObject({ created: true, user: { id: "bob" } });
    expect(await store.createUser({ id: "bob", now: 2 })).toMatchObject({ created: false, user: { email: "b@example.com", createdAt: 1 } });
  });

  test("disable, enable and limits; unknown users report false", async () => {
    const { store } = await freshAuthStore(kind);
    await store.createUser({ id: "carol", now: 1 });
    expect(await store.setDisabled("carol", true)).toBe(true);
    expect((await store.getUser("carol"))!.disabled).toBe(true);
    expect(await store.setDisabled("carol", false)).toBe(true);
    expect((await store.getUser("carol"))!.disabled).toBe(false);
    expect(await store.setLimits("carol", { perMinute: 10 })).toBe(true);
    expect(await store.setLimits("carol", { perDay: 500 })).toBe(true);
    expect(await store.getUser("carol")).toMatchObject({ perMinute: 10, perDay: 500 });
    expect(await store.setLimits("carol", null)).toBe(true);
    expect(await store.getUser("carol")).toMatchObject({ perMinute: null, perDay: null });
    expect(await store.setDisabled("nobody", true)).toBe(false);
    expect(await store.setLimits("nobody", { perMinute: 2 })).toBe(false);
    await expect(store.setLimits("carol", { perMinute: 0 })).rejects.toThrow("per-minute limit must be a positive integer, got '0'");
    await expect(store.setLimits("carol", { perDay: 2.5 })).rejects.toThrow("per-day limit must be a positive integer, got '2.5'");
  });

  test("issued tokens are listed per user with ms times and create their users; revocation is recorded once", async () => {
    const { store } = await freshAuthStore(kind);
    const clock = new TestClock(Date.parse("2026-11-22T08:00:00Z"));
    const a = await mintToken({ secret: "s", userId: "alice", ttlSeconds: 86400, clock });
    await store.issueTokens([{ jti: a.jti, userId: "alice", issuedAt: a.iat * 1000, expiresAt: a.exp * 1000 }], { email: "a@x", now: 7 });
    clock.tick(1000);
    const b = await mintToken({ secret: "s", userId: "bob", ttlSeconds: 60, clock });
    await store.issueTokens([{ jti: b.jti, userId: "bob", issuedAt: b.iat * 1000, expiresAt: b.exp * 1000 }], { now: 8 });
    expect(await store.getUser("alice")).toMatchObject({ email: "a@x", createdAt: 7 });
    expect((await store.listTokens()).map((t) => t.userId)).toEqual(["alice", "bob"]);
    expect(await store.listTokens({ userId: "bob" })).toEqual([
      {
        jti: b.jti,
        userId: "bob",
        issuedAt: Date.parse("2026-11-22T08:00:01Z"),
        expiresAt: Date.parse("2026-11-22T08:01:01Z"),
        revokedAt: null,
      },
    ]);
    expect(await store.isRevoked(a.jti)).toBe(false);
    expect(await store.revokeToken(a.jti, 5000)).toBe("revoked");
    expect(await store.revokeToken(a.jti, 6000)).toBe("already-revoked");
    expect(await store.isRevoked(a.jti)).toBe(true);
    expect(await store.isRevoked(b.jti)).toBe(false);
    expect((await store.listTokens({ userId: "alice" }))[0]!.revokedAt).toBe(5000);
  });

  test("caller: the user and its token's revocation in one read; a user with no row, and a token with no jti", async () => {
    const { store } = await freshAuthStore(kind);
    await store.issueTokens([{ jti: "ja", userId: "alice", issuedAt: 1, expiresAt: 2 }], { email: "a@x", now: 7 });
    await store.issueTokens([{ jti: "jb", userId: "alice", issuedAt: 1, expiresAt: 2 }], { now: 8 });
    await store.setLimits("alice", { perMinute: 3 });
    const alice = await store.getUser("alice");
    expect(alice).toMatchObject({ id: "alice", email: "a@x", perMinute: 3 });
    expect(await store.caller("alice", "ja")).toEqual({ user: alice, revoked: false });
    await store.revokeToken("ja", 9);
    expect(await store.caller("alice", "ja")).toEqual({ user: alice, revoked: true });
    expect(await store.caller("alice", "jb")).toEqual({ user: alice, revoked: false });
    expect(await store.caller("alice", "never-minted")).toEqual({ user: alice, revoked: false });
    expect(await store.caller("alice", undefined)).toEqual({ user: alice, revoked: false });
    await store.setDisabled("alice", true);
    expect((await store.caller("alice", "jb")).user?.disabled).toBe(true);
    // No row yet: the revocation is still read (a jti revoked here but minted elsewhere included).
    expect(await store.caller("nobody", "jb")).toEqual({ user: null, revoked: false });
    await store.revokeToken("foreign", 10);
    expect(await store.caller("nobody", "foreign")).toEqual({ user: null, revoked: true });
    expect(await store.caller("nobody", undefined)).toEqual({ user: null, revoked: false });
  });

  test("a jti never minted here can be revoked", async () => {
    const { store } = await freshAuthStore(kind);
    expect(await store.isRevoked("foreign-jti")).toBe(false);
    expect(await store.revokeToken("foreign-jti", 42)).toBe("revoked-unknown-jti");
    expect(await store.isRevoked("foreign-jti")).toBe(true);
    expect(await store.revokeToken("foreign-jti", 43)).toBe("already-revoked");
  });

  test("a failed issue records nothing: a duplicate jti rolls back the users it created", async () => {
    const { store } = await freshAuthStore(kind);
    await store.issueTokens([{ jti: "j1", userId: "u1", issuedAt: 1, expiresAt: 2 }], { now: 1 });
    await expect(
      store.issueTokens(
        [
          { jti: "j2", userId: "u2", issuedAt: 1, expiresAt: 2 },
          { jti: "j1", userId: "u3", issuedAt: 1, expiresAt: 2 },
        ],
        { now: 1 },
      ),
    ).rejects.toThrow();
    expect(await store.getUser("u2")).toBeNull();
    expect((await store.listTokens()).map((t) => t.jti)).toEqual(["j1"]);
  });

  test("settings: absent is null, set writes, insert-if-absent says whether it inserted", async () => {
    const { store } = await freshAuthStore(kind);
    expect(await store.getSetting("k")).toBeNull();
    expect(await store.insertSettingIfAbsent("k", "first")).toBe(true);
    expect(await store.insertSettingIfAbsent("k", "second")).toBe(false);
    expect(await store.getSetting("k")).toBe("first");
    await store.setSetting("k", "third");
    await store.setSetting("k", "third");
    expect(await store.getSetting("k")).toBe("third");
  });
});

/** Another connection holding the database's write lock (SQLite) or the users table's (PostgreSQL); reads still answer. */
async function holdWriteLock(b: Backend): Promise<() => Promise<void>> {
  if (b.kind === "sqlite") {
    const other = new Database(b.sqlite.path);
    other.exec("BEGIN IMMEDIATE");
    return async () => {
      other.exec("ROLLBACK");
      other.close();
    };
  }
  const holder = await b.pg.sql.reserve();
  await holder`BEGIN`;
  await holder`LOCK TABLE users IN EXCLUSIVE MODE`;
  return async () => {
    await holder`ROLLBACK`;
    holder.release();
  };
}
