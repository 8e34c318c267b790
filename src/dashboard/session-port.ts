/** What each database implements for the session store: its statements, none of the rules (session-policy.ts). */
import type { Maybe } from "../metering/meter-port.ts";
import type { Session, SignInIdentity } from "./session-store.ts";

/** A stored session: only the SHA-256 of its cookie value. */
export type SessionRow = Session & { idHash: string };

export interface SessionPort {
  insert(row: SessionRow): Maybe<void>;
  byHash(idHash: string): Maybe<SessionRow | null>;
  touch(idHash: string, now: number): Maybe<void>;
  delete(idHash: string): Maybe<void>;
  /** Deletes sessions last seen before `before`; how many. */
  deleteSeenBefore(before: number): Maybe<number>;
  /**
   * Inserts the identity for `userId`, or, when (issuer, subject) exists, sets its name and last
   * sign-in and keeps its user; returns the identity's user (one statement: racing sign-ins agree).
   */
  upsertIdentity(identity: SignInIdentity, userId: string, now: number): Maybe<string>;
  /** Inserts the user with the default limits, or sets its email when `email` is not null. */
  upsertUser(userId: string, email: string | null, now: number): Maybe<void>;
  identityName(userId: string, issuer: string): Maybe<string | null>;
  /**
   * Marks a pending sign-in spent (by its state's hash) until `until`; false when it already was
   * (one INSERT that does nothing on conflict: of racing callbacks on any instances, one wins).
   */
  insertSpent(stateHash: string, until: number): Maybe<boolean>;
  /** Deletes the spent marks that ended at or before `now`; how many. */
  deleteSpentUntil(now: number): Maybe<number>;
}
