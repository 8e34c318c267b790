import { expect, test } from "bun:test";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { createSessionStore, SESSION_IDLE_MS, userIdFor } from "./session-store.ts";

const setup = () => {
  const opened = openDatabase(":memory:");
  const clock = new TestClock(Date.parse("2026-11-22T10:00:00Z"));
  return { opened, clock, store: createSessionStore(opened.db, clock) };
};

test("a session lives while used and ends 12 h after its last request", () => {
  const { store, clock } = setup();
  const { id, csrf } = store.create("u-1", "https://idp.example");
  clock.tick(SESSION_IDLE_MS - 1000);
  expect(store.get(id)?.csrf).toBe(csrf);
  clock.tick(SESSION_IDLE_MS - 1000); // 24 h after creation, but under 12 h since the last use
  expect(store.get(id)?.userId).toBe("u-1");
  clock.tick(SESSION_IDLE_MS);
  expect(store.get(id)).toBeNull();
});

test("only the hash of the cookie value is stored; unknown and malformed ids open nothing", () => {
  const { store, opened } = setup();
  const { id } = store.create("u-1", "iss");
  const stored = opened.sqlite.query("SELECT id_hash AS h FROM sessions").all() as { h: string }[];
  expect(stored.map((r) => r.h)).not.toContain(id);
  expect(store.get(id.replace(/.$/, (c) => (c === "A" ? "B" : "A")))).toBeNull();
  expect(store.get("' OR 1=1 --")).toBeNull();
  store.destroy(id);
  expect(store.get(id)).toBeNull();
});

test("prune deletes idle sessions only", () => {
  const { store, clock } = setup();
  const old = store.create("u-1", "iss");
  clock.tick(SESSION_IDLE_MS + 1);
  const fresh = store.create("u-2", "iss");
  expect(store.prune()).toBe(1);
  expect(store.get(fresh.id)?.userId).toBe("u-2");
  expect(store.get(old.id)).toBeNull();
});

test("the user is the pair (issuer, subject): same subject at another issuer is another user", () => {
  const { store, opened } = setup();
  const a = store.signIn({ issuer: "https://a.example", subject: "42", email: "x@a.example", name: "X" });
  const again = store.signIn({ issuer: "https://a.example", subject: "42", email: "x@a.example", name: "X" });
  const b = store.signIn({ issuer: "https://b.example", subject: "42", email: null, name: null });
  expect(again).toBe(a);
  expect(b).not.toBe(a);
  expect(a).toBe(userIdFor("https://a.example", "42"));
  const users = opened.sqlite.query("SELECT id, email FROM users ORDER BY id").all();
  expect(users).toHaveLength(2);
  expect(store.identityName(a, "https://a.example")).toBe("X");
});
