import { test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { createUser, ensureUser, getUser, setDisabled, setLimits } from "./user-store.ts";

const open = () => openDatabase(join(mkdtempSync(join(tmpdir(), "gs-users-")), "u.sqlite")).sqlite;

test("ensureUser creates on first use, keeps the first creation time and fills a missing email", () => {
  const sqlite = open();
  expect(getUser(sqlite, "alice")).toBeNull();
  expect(ensureUser(sqlite, "alice", undefined, 100)).toEqual({ id: "alice", email: null, disabled: false, perMinute: null, perDay: null, createdAt: 100 });
  expect(ensureUser(sqlite, "alice", "a@example.com", 200)).toMatchObject({ email: "a@example.com", createdAt: 100 });
  expect(ensureUser(sqlite, "alice", "other@example.com", 300).email).toBe("a@example.com");
});

test("createUser reports an existing id instead of overwriting it", () => {
  const sqlite = open();
  expect(createUser(sqlite, { id: "bob", email: "b@example.com", now: 1 })).toMatchObject({ created: true, user: { id: "bob" } });
  expect(createUser(sqlite, { id: "bob", now: 2 })).toMatchObject({ created: false, user: { email: "b@example.com", createdAt: 1 } });
});

test("disable, enable and limits; unknown users report false", () => {
  const sqlite = open();
  createUser(sqlite, { id: "carol", now: 1 });
  expect(setDisabled(sqlite, "carol", true)).toBe(true);
  expect(getUser(sqlite, "carol")!.disabled).toBe(true);
  expect(setDisabled(sqlite, "carol", false)).toBe(true);
  expect(getUser(sqlite, "carol")!.disabled).toBe(false);
  expect(setLimits(sqlite, "carol", { perMinute: 10 })).toBe(true);
  expect(setLimits(sqlite, "carol", { perDay: 500 })).toBe(true);
  expect(getUser(sqlite, "carol")).toMatchObject({ perMinute: 10, perDay: 500 });
  expect(setLimits(sqlite, "carol", null)).toBe(true);
  expect(getUser(sqlite, "carol")).toMatchObject({ perMinute: null, perDay: null });
  expect(setDisabled(sqlite, "nobody", true)).toBe(false);
  expect(setLimits(sqlite, "nobody", { perMinute: 2 })).toBe(false);
  expect(() => setLimits(sqlite, "carol", { perMinute: 0 })).toThrow("per-minute limit must be a positive integer, got '0'");
  expect(() => setLimits(sqlite, "carol", { perDay: 2.5 })).toThrow("per-day limit must be a positive integer, got '2.5'");
});
