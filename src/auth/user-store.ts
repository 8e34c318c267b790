/** Table `users`: API users, their disabled flag and per-user limit overrides (null = global default). */
import type { Database } from "bun:sqlite";
import { checkLimits } from "./user-limits.ts";

export interface UserRecord {
  id: string;
  email: string | null;
  disabled: boolean;
  perMinute: number | null;
  perDay: number | null;
  /** Epoch ms. */
  createdAt: number;
}

interface UserRow extends Omit<UserRecord, "disabled"> {
  disabled: number;
}

const SELECT_USER =
  "SELECT id, email, disabled, per_minute AS perMinute, per_day AS perDay, created_at AS createdAt FROM users WHERE id = ?";

const toRecord = (r: UserRow): UserRecord => ({ ...r, disabled: r.disabled === 1 });

/** The user, or null when unknown. */
export function getUser(sqlite: Database, id: string): UserRecord | null {
  const row = sqlite.query(SELECT_USER).get(id) as UserRow | null;
  return row ? toRecord(row) : null;
}

/** True when ensureUser has nothing to write: the user exists and has an email, or none was given. */
export const isSettled = (known: UserRecord | null, email: string | undefined): known is UserRecord =>
  known !== null && (known.email !== null || email === undefined);

/**
 * Returns the user, creating the record on first use (a valid token for a new `sub`); fills a
 * missing email. A read first: it runs on every live request, and the write is rare.
 */
export function ensureUser(sqlite: Database, id: string, email: string | undefined, now: number): UserRecord {
  const known = getUser(sqlite, id);
  if (isSettled(known, email)) return known;
  sqlite
    .query(
      "INSERT INTO users (id, email, created_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET email = excluded.email WHERE users.email IS NULL AND excluded.email IS NOT NULL",
    )
    .run(id, email ?? null, now);
  return getUser(sqlite, id)!;
}

/** Creates a user; `created` is false (and nothing changes) when the id already exists. */
export function createUser(
  sqlite: Database,
  u: { id: string; email?: string; now: number },
): { created: boolean; user: UserRecord } {
  const r = sqlite.query("INSERT OR IGNORE INTO users (id, email, created_at) VALUES (?, ?, ?)").run(u.id, u.email ?? null, u.now);
  return { created: r.changes === 1, user: getUser(sqlite, u.id)! };
}

/** Disables or re-enables a user; false when the user does not exist. */
export function setDisabled(sqlite: Database, id: string, disabled: boolean): boolean {
  return sqlite.query("UPDATE users SET disabled = ? WHERE id = ?").run(disabled ? 1 : 0, id).changes === 1;
}

/**
 * Sets per-user limit overrides; omitted fields keep their value, `null` resets both to the
 * global defaults. Throws when a limit is not a positive integer; false when the user does not exist.
 */
export function setLimits(sqlite: Database, id: string, limits: { perMinute?: number; perDay?: number } | null): boolean {
  if (limits === null) {
    return sqlite.query("UPDATE users SET per_minute = NULL, per_day = NULL WHERE id = ?").run(id).changes === 1;
  }
  checkLimits(limits);
  return (
    sqlite
      .query("UPDATE users SET per_minute = coalesce(?, per_minute), per_day = coalesce(?, per_day) WHERE id = ?")
      .run(limits.perMinute ?? null, limits.perDay ?? null, id).changes === 1
  );
}
