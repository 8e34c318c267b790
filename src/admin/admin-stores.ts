/** The admin store on each database: admin-policy.ts's rules over that database's statements (db/sqlite, db/pg). */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { pgAdminPort } from "../../db/pg/admin-statements.ts";
import { sqliteAdminPort } from "../../db/sqlite/admin-statements.ts";
import type { AuthStore } from "../auth/auth-store.ts";
import type { Clock } from "../clock.ts";
import { createAdminStore } from "./admin-policy.ts";
import type { AdminStore } from "./admin-store.ts";

export const createSqliteAdminStore = (sqlite: Database, auth: AuthStore, clock: Clock): AdminStore =>
  createAdminStore(sqliteAdminPort(sqlite), auth, clock);

export const createPgAdminStore = (sql: SQL, auth: AuthStore, clock: Clock): AdminStore => createAdminStore(pgAdminPort(sql), auth, clock);
