/** The admin store (and its auth store) over a test database of either kind (test/support/both-databases.ts). */
import type { Backend } from "./both-databases.ts";
import { createPgAdminStore, createSqliteAdminStore } from "../../src/admin/admin-stores.ts";
import type { AdminStore } from "../../src/admin/admin-store.ts";
import { createPgAuthStore, createSqliteAuthStore } from "../../src/auth/auth-stores.ts";
import type { AuthStore } from "../../src/auth/auth-store.ts";
import type { Clock } from "../../src/clock.ts";

export function adminStoresOf(b: Backend, clock: Clock): { auth: AuthStore; admin: AdminStore } {
  if (b.kind === "sqlite") {
    const auth = createSqliteAuthStore(b.sqlite.sqlite);
    return { auth, admin: createSqliteAdminStore(b.sqlite.sqlite, auth, clock) };
  }
  const auth = createPgAuthStore(b.pg.db);
  return { auth, admin: createPgAdminStore(b.pg.sql, auth, clock) };
}
