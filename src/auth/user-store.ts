/**
 * Table `users` on SQLite: API users, their disabled flag and per-user limit overrides (null =
 * global default), through drizzle's typed queries on db/schema.ts, prepared once per connection.
 */
import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import { perConnection, perRawConnection } from "../../db/open.ts";
import { users } from "../../db/schema.ts";
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

const p = sql.placeholder;

/** Written rows are returned (their ids) and counted: bun-sqlite's run result is untyped in drizzle. */
const ID = { id: users.id };

const statements = perConnection((db) => ({
  /** Inserts the user or fills a missing email; the rare write of ensureUser. */
  upsert: db
    .insert(users)
    .values({ id: p("id"), email: p("email"), createdAt: p("now") })
    .onConflictDoUpdate({
      target: users.id,
      set: { email: sql`excluded.email` },
      setWhere: sql`${users.email} IS NULL AND excluded.email IS NOT NULL`,
    })
    .prepare(),
  create: db
    .insert(users)
    .values({ id: p("id"), email: p("email"), createdAt: p("now") })
    .onConflictDoNothing()
    .returning(ID)
    .prepare(),
  disable: db
    .update(users)
    .set({ disabled: sql`${p("disabled")}` })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare(),
  resetLimits: db
    .update(users)
    .set({ perMinute: null, perDay: null })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare(),
  setLimits: db
    .update(users)
    .set({ perMinute: sql`coalesce(${p("perMinute")}, ${users.perMinute})`, perDay: sql`coalesce(${p("perDay")}, ${users.perDay})` })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare(),
}));

/** On every live request: raw (db/open.ts perRawConnection says why). */
const byIdRaw = perRawConnection((sqlite) =>
  sqlite.prepare<Omit<UserRecord, "disabled"> & { disabled: number }, [string]>(
    "SELECT id, email, disabled, per_minute AS perMinute, per_day AS perDay, created_at AS createdAt FROM users WHERE id = ?",
  ),
);

/** The user, or null when unknown. */
export function getUser(sqlite: Database, id: string): UserRecord | null {
  const row = byIdRaw(sqlite).get(id);
  return row ? { ...row, disabled: row.disabled !== 0 } : null;
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
  statements(sqlite).upsert.run({ id, email: email ?? null, now });
  return getUser(sqlite, id)!;
}

/** Creates a user; `created` is false (and nothing changes) when the id already exists. */
export function createUser(sqlite: Database, u: { id: string; email?: string; now: number }): { created: boolean; user: UserRecord } {
  const created = statements(sqlite).create.all({ id: u.id, email: u.email ?? null, now: u.now }).length === 1;
  return { created, user: getUser(sqlite, u.id)! };
}

/** Disables or re-enables a user; false when the user does not exist. */
export function setDisabled(sqlite: Database, id: string, disabled: boolean): boolean {
  return statements(sqlite).disable.all({ id, disabled: disabled ? 1 : 0 }).length === 1;
}

/**
 * Sets per-user limit overrides; omitted fields keep their value, `null` resets both to the
 * global defaults. Throws when a limit is not a positive integer; false when the user does not exist.
 */
export function setLimits(sqlite: Database, id: string, limits: { perMinute?: number; perDay?: number } | null): boolean {
  if (limits === null) return statements(sqlite).resetLimits.all({ id }).length === 1;
  checkLimits(limits);
  return statements(sqlite).setLimits.all({ id, perMinute: limits.perMinute ?? null, perDay: limits.perDay ?? null }).length === 1;
}
