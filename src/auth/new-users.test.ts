import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { closeBackends, freshAuthStore } from "../../test/support/both-databases.ts";
import { createNewUsers } from "./new-users.ts";

afterAll(closeBackends);

test("a first-time user reads as the defaults at once, even under another connection's write lock; the row follows", async () => {
  const { store, backend } = await freshAuthStore("sqlite");
  if (backend.kind !== "sqlite") throw new Error("sqlite");
  const users = createNewUsers(store, () => 1000);
  const other = new Database(backend.sqlite.path);
  other.exec("BEGIN IMMEDIATE");
  try {
    const t0 = performance.now();
    expect(await users.ensure("newcomer", "n@example.com")).toEqual({
      revoked: false,
      user: { disabled: false, perMinute: null, perDay: null },
    });
    await users.flush(); // fails at once on the lock, without waiting busy_timeout, and keeps the user queued
    expect(performance.now() - t0).toBeLessThan(500);
    expect(users.pending()).toBe(1);
    expect(await store.getUser("newcomer")).toBeNull();
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
  await users.flush();
  expect(users.pending()).toBe(0);
  expect(await store.getUser("newcomer")).toMatchObject({ id: "newcomer", email: "n@example.com", createdAt: 1000 });
  // Known and settled: nothing is queued; a disabled user reads as disabled.
  await store.setDisabled("newcomer", true);
  expect(await users.ensure("newcomer", undefined)).toMatchObject({ revoked: false, user: { disabled: true } });
  expect(users.pending()).toBe(0);
  // A revoked token is refused before anything is queued, for a known user and for a first use alike.
  await store.revokeToken("j-known", 2000);
  await store.revokeToken("j-new", 2000);
  expect(await users.ensure("newcomer", undefined, "j-known")).toEqual({ revoked: true });
  expect(await users.ensure("someone-new", "s@example.com", "j-new")).toEqual({ revoked: true });
  expect(users.pending()).toBe(0);
  expect(await users.ensure("someone-new", "s@example.com", "j-other")).toEqual({
    revoked: false,
    user: { disabled: false, perMinute: null, perDay: null },
  });
  expect(users.pending()).toBe(1);
});
