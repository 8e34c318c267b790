/**
 * Dashboard sessions, sign-in identities and spent sign-ins behind one interface: the rules once
 * (session-policy.ts), each database's statements in db/sqlite/session-statements.ts and
 * db/pg/session-statements.ts (PostgreSQL's shared by every instance).
 */

export interface Session {
  userId: string;
  issuer: string;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SignInIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
}

export interface SessionStore {
  create(userId: string, issuer: string): Promise<{ id: string; csrf: string }>;
  /** The live session for a cookie value, refreshing its idle timer; null when unknown or idle too long. */
  get(id: string): Promise<Session | null>;
  destroy(id: string): Promise<void>;
  /** Deletes sessions idle beyond the limit and spent marks past their pending sign-in's life; returns how many rows. */
  prune(): Promise<number>;
  /** Maps an identity-provider account to its API user, creating both on the first sign-in. */
  signIn(identity: SignInIdentity): Promise<string>;
  identityName(userId: string, issuer: string): Promise<string | null>;
  /**
   * Spends a pending sign-in (its state): true for the first callback with it on any instance of
   * the deployment, false ever after (until its cookie has expired, which refuses it by itself).
   */
  spendSignIn(state: string): Promise<boolean>;
}
