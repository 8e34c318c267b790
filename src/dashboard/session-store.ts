/**
 * Dashboard sessions and sign-in identities, on drizzle's typed queries (cold paths: a few per
 * page view). The session cookie holds 32 random bytes; the table keeps their SHA-256.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { identities, sessions, users } from "../../db/schema.ts";
import type { Db } from "../../db/open.ts";
import type { Clock } from "../clock.ts";

/** Sessions end after 12 hours without a request (README.md § Dashboard). */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** lastSeenAt is written at most once a minute per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export interface Session {
  userId: string;
  issuer: string;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
}

/** One per database: this file's on SQLite, session-store-pg.ts's on PostgreSQL (shared by every instance). */
export interface SessionStore {
  create(userId: string, issuer: string): Promise<{ id: string; csrf: string }>;
  /** The live session for a cookie value, refreshing its idle timer; null when unknown or idle too long. */
  get(id: string): Promise<Session | null>;
  destroy(id: string): Promise<void>;
  /** Deletes sessions idle beyond the limit; returns how many. */
  prune(): Promise<number>;
  /** Maps an identity-provider account to its API user, creating both on the first sign-in. */
  signIn(identity: SignInIdentity): Promise<string>;
  identityName(userId: string, issuer: string): Promise<string | null>;
}

export interface SignInIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

/** A new session's cookie value and CSRF token, and the row that stores them (only the id's hash). */
export function newSession(userId: string, issuer: string, now: number) {
  const id = randomToken();
  const csrf = randomToken();
  return { id, csrf, row: { idHash: hashSessionId(id), userId, issuer, csrf, createdAt: now, lastSeenAt: now } };
}

/** What get() does with a stored row at `now`: drop it (idle too long), touch it, or leave it. */
export function sessionAge(lastSeenAt: number, now: number): "expired" | "touch" | "fresh" {
  if (now - lastSeenAt >= SESSION_IDLE_MS) return "expired";
  return now - lastSeenAt >= TOUCH_EVERY_MS ? "touch" : "fresh";
}

/** A cookie value has this shape (32 random bytes, base64url); anything else opens nothing. */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function createSessionStore(db: Db, clock: Clock): SessionStore {
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sql.placeholder("h")))
    .prepare();
  // async methods: SQLite answers at once, and a throw (a locked database) becomes a rejection as on PostgreSQL.
  return {
    async create(userId, issuer) {
      const { id, csrf, row } = newSession(userId, issuer, clock.now());
      db.insert(sessions).values(row).run();
      return { id, csrf };
    },
    async get(id) {
      if (!SESSION_ID.test(id)) return null;
      const h = hashSessionId(id);
      const row = byHash.get({ h });
      if (!row) return null;
      const now = clock.now();
      const age = sessionAge(row.lastSeenAt, now);
      if (age === "expired") {
        db.delete(sessions).where(eq(sessions.idHash, h)).run();
        return null;
      }
      if (age === "touch") db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, h)).run();
      return { userId: row.userId, issuer: row.issuer, csrf: row.csrf, createdAt: row.createdAt, lastSeenAt: now };
    },
    async destroy(id) {
      db.delete(sessions)
        .where(eq(sessions.idHash, hashSessionId(id)))
        .run();
    },
    async prune() {
      return db
        .delete(sessions)
        .where(lt(sessions.lastSeenAt, clock.now() - SESSION_IDLE_MS))
        .returning({ idHash: sessions.idHash })
        .all().length;
    },
    async signIn({ issuer, subject, email, name }) {
      const now = clock.now();
      return db.transaction((tx) => {
        const known = tx
          .select({ userId: identities.userId })
          .from(identities)
          .where(and(eq(identities.issuer, issuer), eq(identities.subject, subject)))
          .get();
        const userId = known?.userId ?? userIdFor(issuer, subject);
        if (known) {
          tx.update(identities)
            .set({ lastSignInAt: now, name })
            .where(and(eq(identities.issuer, issuer), eq(identities.subject, subject)))
            .run();
        } else {
          tx.insert(identities).values({ issuer, subject, userId, name, createdAt: now, lastSignInAt: now }).run();
        }
        // The first sign-in creates the API user with the default limits; the provider's email is kept current.
        tx.insert(users).values({ id: userId, email, createdAt: now }).onConflictDoNothing().run();
        if (email) tx.update(users).set({ email }).where(eq(users.id, userId)).run();
        return userId;
      });
    },
    async identityName(userId, issuer) {
      return (
        db
          .select({ name: identities.name })
          .from(identities)
          .where(and(eq(identities.userId, userId), eq(identities.issuer, issuer)))
          .get()?.name ?? null
      );
    },
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

export function hashSessionId(id: string): string {
  return new Bun.CryptoHasher("sha256").update(id).digest("hex");
}
