/** Dashboard sessions and identities, case for case the same on SQLite and PostgreSQL. */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, KINDS, openBackend, sameDatabase, type Backend } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { PENDING_SIGN_IN_MS, SESSION_IDLE_MS, userIdFor } from "./session-policy.ts";
import { createPgSessionStore } from "./session-stores.ts";
import { createSqliteSessionStore } from "./session-stores.ts";

afterAll(closeBackends);

describe.each(KINDS)("on %s", (kind) => {
  const setup = async () => {
    const b = await openBackend(kind);
    const clock = new TestClock(Date.parse("2026-11-22T10:00:00Z"));
    const storeOn = (on: Backend) =>
      on.kind === "sqlite" ? createSqliteSessionStore(on.sqlite.db, clock) : createPgSessionStore(on.pg.db, clock);
    const store = storeOn(b);
    const rows = async (q: string): Promise<any[]> => (b.kind === "sqlite" ? b.sqlite.sqlite.query(q).all() : await b.pg.sql.unsafe(q));
    /** The store of a second instance: the same database over its own connections. */
    const another = async () => storeOn(await sameDatabase(b));
    return { store, clock, rows, another };
  };

  test("a session lives while used and ends 12 h after its last request", async () => {
    const { store, clock } = await setup();
    const { id, csrf } = await store.create("u-1", "https://idp.example");
    clock.tick(SESSION_IDLE_MS - 1000);
    expect((await store.get(id))?.csrf).toBe(csrf);
    clock.tick(SESSION_IDLE_MS - 1000); // 24 h after creation, but under 12 h since the last use
    expect((await store.get(id))?.userId).toBe("u-1");
    clock.tick(SESSION_IDLE_MS);
    expect(await store.get(id)).toBeNull();
  });

  test("only the hash of the cookie value is stored; unknown and malformed ids open nothing", async () => {
    const { store, rows } = await setup();
    const { id } = await store.create("u-1", "iss");
    const stored = await rows("SELECT id_hash AS h FROM sessions");
    expect(stored.map((r) => r.h)).not.toContain(id);
    expect(await store.get(id.replace(/.$/, (c) => (c === "A" ? "B" : "A")))).toBeNull();
    expect(await store.get("' OR 1=1 --")).toBeNull();
    await store.destroy(id);
    expect(await store.get(id)).toBeNull();
  });

  test("prune deletes idle sessions only", async () => {
    const { store, clock } = await setup();
    const old = await store.create("u-1", "iss");
    clock.tick(SESSION_IDLE_MS + 1);
    const fresh = await store.create("u-2", "iss");
    expect(await store.prune()).toBe(1);
    expect((await store.get(fresh.id))?.userId).toBe("u-2");
    expect(await store.get(old.id)).toBeNull();
  });

  test("the user is the pair (issuer, subject): same subject at another issuer is another user", async () => {
    const { store, rows } = await setup();
    const a = await store.signIn({ issuer: "https://a.example", subject: "42", email: "x@a.example", name: "X" });
    const again = await store.signIn({ issuer: "https://a.example", subject: "42", email: "x@a.example", name: "X" });
    const b = await store.signIn({ issuer: "https://b.example", subject: "42", email: null, name: null });
    expect(again).toBe(a);
    expect(b).not.toBe(a);
    expect(a).toBe(userIdFor("https://a.example", "42"));
    expect(await rows("SELECT id, email FROM users ORDER BY id")).toHaveLength(2);
    expect(await store.identityName(a, "https://a.example")).toBe("X");
  });

  test("the same account signing in on two instances at once is one identity and one user", async () => {
    const { store, rows } = await setup();
    const ids = await Promise.all(
      Array.from({ length: 5 }, () => store.signIn({ issuer: "https://a.example", subject: "7", email: "s@a.example", name: "S" })),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await rows("SELECT user_id FROM identities")).toHaveLength(1);
    expect(await rows("SELECT id FROM users")).toHaveLength(1);
  });

  test("the last request's time is written at most once a minute", async () => {
    const { store, clock, rows } = await setup();
    const { id } = await store.create("u-1", "iss");
    const seen = async () => (await rows("SELECT last_seen_at AS t FROM sessions"))[0].t;
    const created = clock.now();
    clock.tick(59_999);
    expect((await store.get(id))?.lastSeenAt).toBe(clock.now());
    expect(Number(await seen())).toBe(created);
    clock.tick(1);
    await store.get(id);
    expect(Number(await seen())).toBe(clock.now());
  });

  test("a known identity keeps its user; its name follows the provider, its email only when the provider gives one", async () => {
    const { store, rows } = await setup();
    const user = await store.signIn({ issuer: "iss", subject: "9", email: "old@x", name: "Old" });
    expect(await store.signIn({ issuer: "iss", subject: "9", email: "new@x", name: "New" })).toBe(user);
    expect(await store.identityName(user, "iss")).toBe("New");
    expect(await rows("SELECT email FROM users")).toEqual([{ email: "new@x" }]);
    await store.signIn({ issuer: "iss", subject: "9", email: null, name: null });
    expect(await rows("SELECT email FROM users")).toEqual([{ email: "new@x" }]);
    expect(await store.identityName(user, "iss")).toBeNull();
    expect(await store.identityName(user, "other-iss")).toBeNull();
  });

  test("a pending sign-in is spent once for the deployment: whichever instance sees it first, the others find it spent", async () => {
    const { store, another } = await setup();
    const second = await another();
    expect(await store.spendSignIn("state-1")).toBe(true);
    expect(await second.spendSignIn("state-1")).toBe(false);
    expect(await store.spendSignIn("state-1")).toBe(false);
    expect(await second.spendSignIn("state-2")).toBe(true);
  });

  test("racing callbacks on two instances with one pending sign-in: exactly one spends it", async () => {
    const { store, another } = await setup();
    const second = await another();
    const spends = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? second : store).spendSignIn("raced")));
    expect(spends.filter(Boolean)).toHaveLength(1);
  });

  test("a spent mark is kept while the pending sign-in's cookie can live, pruned after; only the state's hash is stored", async () => {
    const { store, clock, rows } = await setup();
    expect(await store.spendSignIn("state-3")).toBe(true);
    expect((await rows("SELECT state_hash AS h FROM spent_sign_ins")).map((r) => r.h)).not.toContain("state-3");
    clock.tick(PENDING_SIGN_IN_MS - 1);
    expect(await store.prune()).toBe(0);
    expect(await store.spendSignIn("state-3")).toBe(false);
    clock.tick(1);
    expect(await store.prune()).toBe(1);
    expect(await rows("SELECT state_hash FROM spent_sign_ins")).toEqual([]);
  });
});
