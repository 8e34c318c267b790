import { describe, test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { FINGERPRINT_KEY, resolveSecret, secretFingerprint, secretForMinting, SecretMismatchError } from "./secret.ts";

const freshPath = () => join(mkdtempSync(join(tmpdir(), "gs-secret-")), "s.sqlite");

const settings = (sqlite: ReturnType<typeof openDatabase>["sqlite"]) =>
  Object.fromEntries((sqlite.query("SELECT key, value FROM settings").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));

test("a configured secret is used as is; only its fingerprint is stored", () => {
  const { sqlite } = openDatabase(freshPath());
  const logs: string[] = [];
  expect(resolveSecret(sqlite, "from-config-0123456789", (m) => logs.push(m))).toBe("from-config-0123456789");
  expect(settings(sqlite)).toEqual({ [FINGERPRINT_KEY]: secretFingerprint("from-config-0123456789") });
  expect(JSON.stringify(settings(sqlite))).not.toContain("from-config");
  expect(logs).toEqual([]);
});

test("the fingerprint is HMAC-SHA256 of a fixed label keyed by the secret, in hex", () => {
  const expected = new Bun.CryptoHasher("sha256", "s3cret-s3cret-s3cret").update("graph-stats jwt secret fingerprint v1").digest("hex");
  expect(secretFingerprint("s3cret-s3cret-s3cret")).toBe(expected);
  expect(secretFingerprint("another-secret-entirely")).not.toBe(expected);
});

test("a server restarted on another secret records the new fingerprint and warns", () => {
  const { sqlite } = openDatabase(freshPath());
  const logs: string[] = [];
  resolveSecret(sqlite, "first-secret-0123456789", (m) => logs.push(m));
  resolveSecret(sqlite, "first-secret-0123456789", (m) => logs.push(m));
  expect(logs).toEqual([]);
  resolveSecret(sqlite, "second-secret-0123456789", (m) => logs.push(m));
  expect(settings(sqlite)[FINGERPRINT_KEY]).toBe(secretFingerprint("second-secret-0123456789"));
  expect(logs).toHaveLength(1);
  expect(logs[0]).toContain("--jwt-previous-secrets");
  expect(logs[0]).not.toContain("second-secret");
});

describe("minting from the CLI", () => {
  test("with the server's configured secret it mints; without it or with another it refuses, generating nothing", () => {
    const { sqlite } = openDatabase(freshPath());
    resolveSecret(sqlite, "server-secret-0123456789", () => {});
    expect(secretForMinting(sqlite, "server-secret-0123456789", () => {})).toBe("server-secret-0123456789");
    expect(() => secretForMinting(sqlite, undefined, () => {})).toThrow(SecretMismatchError);
    expect(() => secretForMinting(sqlite, undefined, () => {})).toThrow("GRAPH_STATS_JWT_SECRET");
    expect(() => secretForMinting(sqlite, "other-secret-0123456789", () => {})).toThrow("does not match");
    expect(Object.keys(settings(sqlite))).toEqual([FINGERPRINT_KEY]);
  });

  test("a server on a generated secret: the CLI uses that secret, and refuses a configured other one", () => {
    const { sqlite } = openDatabase(freshPath());
    const generated = resolveSecret(sqlite, undefined, () => {});
    expect(secretForMinting(sqlite, undefined, () => {})).toBe(generated);
    expect(() => secretForMinting(sqlite, "other-secret-0123456789", () => {})).toThrow("does not match");
  });

  test("a stored generated secret that is not the server's (the server later got a configured one) is refused", () => {
    const { sqlite } = openDatabase(freshPath());
    resolveSecret(sqlite, undefined, () => {});
    resolveSecret(sqlite, "configured-later-0123456789", () => {});
    expect(() => secretForMinting(sqlite, undefined, () => {})).toThrow("GRAPH_STATS_JWT_SECRET");
  });

  test("before any server ran, it resolves and records the secret as serve would", () => {
    const { sqlite } = openDatabase(freshPath());
    const secret = secretForMinting(sqlite, undefined, () => {});
    expect(settings(sqlite)[FINGERPRINT_KEY]).toBe(secretFingerprint(secret));
    expect(resolveSecret(sqlite, undefined, () => {})).toBe(secret);
  });
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
