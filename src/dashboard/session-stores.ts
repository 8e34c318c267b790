/** The session store on each database: session-policy.ts's rules over that database's statements (db/sqlite, db/pg). */
import type { PgDb } from "../../db/pg/open.ts";
import { pgSessionPort } from "../../db/pg/session-statements.ts";
import type { Db } from "../../db/sqlite/open.ts";
import { sqliteSessionPort } from "../../db/sqlite/session-statements.ts";
import type { Clock } from "../clock.ts";
import { createSessionStore } from "./session-policy.ts";
import type { SessionStore } from "./session-store.ts";

export function createSqliteSessionStore(db: Db, clock: Clock): SessionStore {
  return createSessionStore(sqliteSessionPort(db), clock);
}

export function createPgSessionStore(db: PgDb, clock: Clock): SessionStore {
  return createSessionStore(pgSessionPort(db), clock);
}
