/**
 * The pending sign-in (state, nonce, PKCE verifier) travels in an encrypted, expiring cookie
 * rather than a table, so an anonymous caller starting sign-ins makes nothing on the server grow.
 */
import { EncryptJWT, jwtDecrypt } from "jose";
import type { Clock } from "../clock.ts";

export interface Sealer<T> {
  seal(value: T): Promise<string>;
  /** The value, or null when the cookie is missing, tampered with, from another key or expired. */
  open(sealed: string | null): Promise<T | null>;
}

/** A key for one purpose derived from the service secret (HMAC-SHA256), so the secret itself encrypts nothing. */
export function deriveKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(new Bun.CryptoHasher("sha256", secret).update(`graph-stats ${purpose}`).digest());
}

export function createSealer<T extends object>(key: Uint8Array, ttlSeconds: number, clock: Clock): Sealer<T> {
  return {
    async seal(value) {
      const now = Math.floor(clock.now() / 1000);
      return new EncryptJWT({ v: value as Record<string, unknown> })
        .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .encrypt(key);
    },
    async open(sealed) {
      if (!sealed || sealed.length > 4096) return null;
      try {
        const { payload } = await jwtDecrypt(sealed, key, {
          currentDate: new Date(clock.now()),
          keyManagementAlgorithms: ["dir"],
          contentEncryptionAlgorithms: ["A256GCM"],
        });
        return (payload.v as T) ?? null;
      } catch {
        return null;
      }
    },
  };
}
