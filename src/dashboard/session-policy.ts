/**
 * The session store's rules, once for both databases: the cookie holds 32 random bytes and the
 * table only their SHA-256; a session ends 12 hours after its last request, and its last-seen
 * time is written at most once a minute; a first sign-in creates the API user (its id stable
 * across instances), and the provider's email is kept current. A pending sign-in is spent once for
 * the whole deployment: the mark lives in the database as long as the sign-in's cookie can.
 */
import type { Clock } from "../clock.ts";
import type { SessionPort } from "./session-port.ts";
import type { SessionStore } from "./session-store.ts";

/** Sessions end after 12 hours without a request (README.md § Dashboard). */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** lastSeenAt is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/** How long a pending sign-in's cookie lives, and so how long its spent mark is kept. */
export const PENDING_SIGN_IN_MS = 600_000;

/** A cookie value has this shape (32 random bytes, base64url); anything else opens nothing. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** Whether a cookie value could be a session this server issued (its shape, not whether it is live). */
export const isSessionId = (value: string): boolean => SESSION_ID.test(value);

export function createSessionStore(port: SessionPort, clock: Clock): SessionStore {
  return {
    async create(userId, issuer) {
      const id = randomToken();
      const csrf = randomToken();
      const now = clock.now();
      await port.insert({ idHash: sha256Hex(id), userId, issuer, csrf, createdAt: now, lastSeenAt: now });
      return { id, csrf };
    },
    async get(id) {
      if (!SESSION_ID.test(id)) return null;
      const h = sha256Hex(id);
      const row = await port.byHash(h);
      if (!row) return null;
      const now = clock.now();
      if (now - row.lastSeenAt >= SESSION_IDLE_MS) {
        await port.delete(h);
        return null;
      }
      if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await port.touch(h, now);
      return { userId: row.userId, issuer: row.issuer, csrf: row.csrf, createdAt: row.createdAt, lastSeenAt: now };
    },
    destroy: async (id) => port.delete(sha256Hex(id)),
    async prune() {
      const now = clock.now();
      return (await port.deleteSeenBefore(now - SESSION_IDLE_MS)) + (await port.deleteSpentUntil(now));
    },
    async signIn(identity) {
      const now = clock.now();
      // Both statements are idempotent: a sign-in cut between them is completed by the next one.
      const userId = await port.upsertIdentity(identity, userIdFor(identity.issuer, identity.subject), now);
      await port.upsertUser(userId, identity.email || null, now);
      return userId;
    },
    identityName: async (userId, issuer) => port.identityName(userId, issuer),
    spendSignIn: async (state) => port.insertSpent(sha256Hex(state), clock.now() + PENDING_SIGN_IN_MS),
  };
}

/**
 * A stable API user id for an identity: readable enough for the operator's `usage` report, and
 * the same on every instance without coordination (a hash of issuer and subject).
 */
export function userIdFor(issuer: string, subject: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(`${issuer}\n${subject}`).digest("base64url");
  return `u-${digest.slice(0, 16).replace(/[_-]/g, "x").toLowerCase()}`;
}

function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** Session ids and sign-in states are stored as their SHA-256 only. */
function sha256Hex(value: string): string {
  return new Bun.CryptoHasher("sha256").update(value).digest("hex");
}
