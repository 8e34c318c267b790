/**
 * A counter in `settings.data_version`, bumped by every write of bars so caches keyed by it
 * (series, demo payloads) invalidate — also across processes sharing the database file.
 */
import { eq, sql } from "drizzle-orm";
import { perConnection } from "../../db/open.ts";
import { settings } from "../../db/schema.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";

const KEY = "data_version";

const statements = perConnection((db) => ({
  read: db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY)).prepare(),
  bump: db
    .insert(settings)
    .values({ key: KEY, value: "1" })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`CAST(CAST(${settings.value} AS INTEGER) + 1 AS TEXT)` } })
    .returning({ value: settings.value })
    .prepare(),
}));

/**
 * The current data version (0 before any data was written). Read once per live request and per
 * series load: 2.7 µs prepared in drizzle against 2.4 µs raw, nothing next to a request's ~150 µs.
 */
export function getDataVersion(h: DbHandle): number {
  const row = statements(rawDb(h)).read.get();
  return row ? Number(row.value) : 0;
}

/** Increments the data version; call inside the transaction that writes the bars. Returns the new value. */
export function bumpDataVersion(h: DbHandle): number {
  return Number(statements(rawDb(h)).bump.get()!.value);
}
