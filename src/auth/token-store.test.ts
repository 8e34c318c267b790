import { test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { mintToken } from "./mint-token.ts";
import { isRevoked, listTokens, recordToken, revokeToken } from "./token-store.ts";

const open = () => openDatabase(join(mkdtempSync(join(tmpdir(), "gs-tokens-")), "t.sqlite")).sqlite;

test("minted tokens are listed per user with ms times, and revocation is recorded once", async () => {
  const sqlite = open();
  const clock = new TestClock(Date.parse("2026-11-22T08:00:00Z"));
  const a = await mintToken({ secret: "s", userId: "alice", ttlSeconds: 86400, clock });
  recordToken(sqlite, { jti: a.jti, userId: "alice", issuedAt: a.iat * 1000, expiresAt: a.exp * 1000 });
  clock.tick(1000);
  const b = await mintToken({ secret: "s", userId: "bob", ttlSeconds: 60, clock });
  recordToken(sqlite, { jti: b.jti, userId: "bob", issuedAt: b.iat * 1000, expiresAt: b.exp * 1000 });

  expect(listTokens(sqlite).map((t) => t.userId)).toEqual(["alice", "bob"]);
  expect(listTokens(sqlite, { userId: "bob" })).toEqual([
    { jti: b.jti, userId: "bob", issuedAt: Date.parse("2026-11-22T08:00:01Z"), expiresAt: Date.parse("2026-11-22T08:01:01Z"), revokedAt: null },
  ]);
  expect(isRevoked(sqlite, a.jti)).toBe(false);
  expect(revokeToken(sqlite, a.jti, 5000)).toBe("revoked");
  expect(revokeToken(sqlite, a.jti, 6000)).toBe("already-revoked");
  expect(isRevoked(sqlite, a.jti)).toBe(true);
  expect(isRevoked(sqlite, b.jti)).toBe(false);
  expect(listTokens(sqlite, { userId: "alice" })[0].revokedAt).toBe(5000);
});

test("a jti never minted here can be revoked", () => {
  const sqlite = open();
  expect(isRevoked(sqlite, "foreign-jti")).toBe(false);
  expect(revokeToken(sqlite, "foreign-jti", 42)).toBe("revoked-unknown-jti");
  expect(isRevoked(sqlite, "foreign-jti")).toBe(true);
  expect(revokeToken(sqlite, "foreign-jti", 43)).toBe("already-revoked");
});
