import { afterAll, expect, test } from "bun:test";
import { closeBackends, freshAuthStore } from "../../test/support/both-databases.ts";
import { holdWriteLock } from "../../test/support/write-lock-holder.ts";
import { createNewUsers } from "./new-users.ts";

/** Long enough that "by itself" only means the code under test waited for the lock. */
const HOLD_MAX_MS = 15_000;
const BUSY_TIMEOUT_MS = 60_000;

afterAll(closeBackends);

test("a first-time user reads as the defaults at once, even under another process's write lock; the row follows", async () => {
  const { store, backend } = await freshAuthStore("sqlite");
  if (backend.kind !== "sqlite") throw new Error("sqlite");
  // The connection would wait past the holder's own bound: a flush that waited for the lock would see it let go by itself.
  backend.sqlite.sqlite.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const users = createNewUsers(store, () => 1000);
  const holder = await holdWriteLock(backend.sqlite.path, HOLD_MAX_MS);
  try {
    expect(await users.ensure("newcomer", "n@example.com")).toEqual({
      revoked: false,
      user: { disabled: false, perMinute: null, perDay: null, planPerMinute: null, planPerDay: null, plan: null, admin: false },
    });
    await users.flush(); // fails on the lock without waiting busy_timeout, and keeps the user queued
    expect(users.pending()).toBe(1);
    expect(await store.getUser("newcomer")).toBeNull();
  } finally {
    expect(await holder.release()).toBe("on request");
  }
  await users.flush();
  expect(users.pending()).toBe(0);
  expect(await store.getUser("newcomer")).toMatchObject({ id: "newcomer", email: "n@example.com", createdAt: 1000 });
});
