import { describe, test, expect, afterAll } from "bun:test";
import { closeBackends, freshAuthStore, KINDS, settingsOf } from "../../test/support/both-databases.ts";
import { createSqliteAuthStore } from "./auth-stores.ts";
import { FINGERPRINT_KEY, resolveSecret, secretFingerprint, secretForMinting, SecretMismatchError } from "./secret.ts";

afterAll(closeBackends);

test("the fingerprint is HMAC-SHA256 of a fixed label keyed by the secret, in hex", () => {
  const expected = new Bun.CryptoHasher("sha256", "s3cret-s3cret-s3cret").update("graph-stats jwt secret fingerprint v1").digest("hex");
  expect(secretFingerprint("s3cret-s3cret-s3cret")).toBe(expected);
  expect(secretFingerprint("another-secret-entirely")).not.toBe(expected);
});

describe.each(KINDS)("on %s", (kind) => {
  test("a configured secret is used as is; only its fingerprint is stored", async () => {
    const { store, backend } = await freshAuthStore(kind);
    const logs: string[] = [];
    expect(await resolveSecret(store, "from-config-0123456789", (m) => logs.push(m))).toBe("from-config-0123456789");
    expect(await settingsOf(backend)).toEqual({ [FINGERPRINT_KEY]: secretFingerprint("from-config-0123456789") });
    expect(JSON.stringify(await settingsOf(backend))).not.toContain("from-config");
    expect(logs).toEqual([]);
  });

  test("a server restarted on another secret records the new fingerprint and warns", async () => {
    const { store, backend } = await freshAuthStore(kind);
    const logs: string[] = [];
    await resolveSecret(store, "first-secret-0123456789", (m) => logs.push(m));
    await resolveSecret(store, "first-secret-0123456789", (m) => logs.push(m));
    expect(logs).toEqual([]);
    await resolveSecret(store, "second-secret-0123456789", (m) => logs.push(m));
    expect((await settingsOf(backend))[FINGERPRINT_KEY]).toBe(secretFingerprint("second-secret-0123456789"));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("--jwt-previous-secrets");
    expect(logs[0]).not.toContain("second-secret");
  });

  test("minting from the CLI: with the server's configured secret it mints; without it or with another it refuses, generating nothing", async () => {
    const { store, backend } = await freshAuthStore(kind);
    await resolveSecret(store, "server-secret-0123456789", () => {});
    expect(await secretForMinting(store, "server-secret-0123456789", () => {})).toBe("server-secret-0123456789");
    await expect(secretForMinting(store, undefined, () => {})).rejects.toThrow(SecretMismatchError);
    await expect(secretForMinting(store, undefined, () => {})).rejects.toThrow("GRAPH_STATS_JWT_SECRET");
    await expect(secretForMinting(store, "other-secret-0123456789", () => {})).rejects.toThrow("does not match");
    expect(Object.keys(await settingsOf(backend))).toEqual([FINGERPRINT_KEY]);
  });

  test("a server on a generated secret: the CLI uses that secret, and refuses a configured other one", async () => {
    const { store } = await freshAuthStore(kind);
    const generated = await resolveSecret(store, undefined, () => {});
    expect(await secretForMinting(store, undefined, () => {})).toBe(generated);
    await expect(secretForMinting(store, "other-secret-0123456789", () => {})).rejects.toThrow("does not match");
  });

  test("a stored generated secret that is not the server's (the server later got a configured one) is refused", async () => {
    const { store } = await freshAuthStore(kind);
    await resolveSecret(store, undefined, () => {});
    await resolveSecret(store, "configured-later-0123456789", () => {});
    await expect(secretForMinting(store, undefined, () => {})).rejects.toThrow("GRAPH_STATS_JWT_SECRET");
  });

  test("before any server ran, it resolves and records the secret as serve would", async () => {
    const { store, backend } = await freshAuthStore(kind);
    const secret = await secretForMinting(store, undefined, () => {});
    expect((await settingsOf(backend))[FINGERPRINT_KEY]).toBe(secretFingerprint(secret));
    expect(await resolveSecret(store, undefined, () => {})).toBe(secret);
  });

  test("without configuration a secret is generated once, logged without its value; instances starting together get one secret", async () => {
    const { store } = await freshAuthStore(kind);
    const logs: string[] = [];
    const all = await Promise.all(Array.from({ length: 3 }, () => resolveSecret(store, undefined, (m) => logs.push(m))));
    const secret = all[0]!;
    expect(new Set(all).size).toBe(1);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, "base64url").length).toBe(32);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain("generated");
    expect(logs[0]).not.toContain(secret);
    expect(await resolveSecret(store, "", (m) => logs.push(m))).toBe(secret);
    expect(logs).toHaveLength(1);
  });

  test("two databases get different secrets", async () => {
    const a = await resolveSecret((await freshAuthStore(kind)).store, undefined, () => {});
    const b = await resolveSecret((await freshAuthStore(kind)).store, undefined, () => {});
    expect(a).not.toBe(b);
  });
});

test("a generated secret survives reopening the SQLite file", async () => {
  const { backend } = await freshAuthStore("sqlite");
  if (backend.kind !== "sqlite") throw new Error("sqlite expected");
  const secret = await resolveSecret(createSqliteAuthStore(backend.sqlite.sqlite), undefined, () => {});
  const { openDatabase } = await import("../../db/sqlite/open.ts");
  const again = openDatabase(backend.sqlite.path);
  expect(await resolveSecret(createSqliteAuthStore(again.sqlite), undefined, () => {})).toBe(secret);
  again.sqlite.close();
});
