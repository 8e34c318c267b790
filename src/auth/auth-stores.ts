/** The auth store on each database: auth-policy.ts's rules over that database's statements (db/sqlite, db/pg). */
import type { Database } from "bun:sqlite";
import { pgAuthPort } from "../../db/pg/auth-statements.ts";
import type { PgDb } from "../../db/pg/open.ts";
import { sqliteAuthPort } from "../../db/sqlite/auth-statements.ts";
import { perRawConnection } from "../../db/sqlite/open.ts";
import { createAuthStore } from "./auth-policy.ts";
import type { AuthStore } from "./auth-store.ts";

export function createSqliteAuthStore(sqlite: Database): AuthStore {
  return createAuthStore(sqliteAuthPort(sqlite));
}

/** The store over a connection its caller holds (tests, scripts), made once per connection. */
export const sqliteAuthStoreOf = perRawConnection(createSqliteAuthStore);

/** For a caller holding the connection (test/dashboard/dashboard.test.ts): the write is done when it returns. */
export const setDisabled = (sqlite: Database, id: string, disabled: boolean) => sqliteAuthStoreOf(sqlite).setDisabled(id, disabled);

export function createPgAuthStore(db: PgDb): AuthStore {
  return createAuthStore(pgAuthPort(db));
}
