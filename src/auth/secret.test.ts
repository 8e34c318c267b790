import { test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { resolveSecret } from "./secret.ts";

const freshPath = () => join(mkdtempSync(join(tmpdir(), "gs-secret-")), "s.sqlite");

test("a configured secret is used as is and nothing is stored", () => {
  const { sqlite } = openDatabase(freshPath());
  const logs: string[] = [];
  expect(resolveSecret(sqlite, "from-config", (m) => logs.push(m))).toBe("from-config");
  expect(sqlite.query("SELECT count(*) AS n FROM settings").get()).toEqual({ n: 0 });
  expect(logs).toEqual([]);
});

test("without configuration a secret is generated once, logged without its value, and survives a reopen", () => {
  const path = freshPath();
  const first = openDatabase(path);
  const logs: string[] = [];
  const secret = resolveSecret(first.sqlite, undefined, (m) => logs.push(m));
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(Buffer.from(secret, "base64url").length).toBe(32);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toContain("generated");
  expect(logs[0]).not.toContain(secret);
  expect(resolveSecret(first.sqlite, "", (m) => logs.push(m))).toBe(secret);
  first.sqlite.close();
  const second = openDatabase(path);
  expect(resolveSecret(second.sqlite, undefined, (m) => logs.push(m))).toBe(secret);
  expect(logs).toHaveLength(1);
  second.sqlite.close();
});

test("two databases get different secrets", () => {
  const a = resolveSecret(openDatabase(freshPath()).sqlite, undefined, () => {});
  const b = resolveSecret(openDatabase(freshPath()).sqlite, undefined, () => {});
  expect(a).not.toBe(b);
});
