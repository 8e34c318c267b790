/**
 * A counter in `settings.data_version`, bumped by every write of bars so caches keyed by it
 * (series, demo payloads) invalidate — also across processes sharing the database file.
 */
import { sql } from "drizzle-orm";
import { perConnection, perRawConnection } from "../../db/sqlite/open.ts";
import { settings } from "../../db/sqlite/schema.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";

/** The settings key, on either database. */
export const DATA_VERSION_KEY = "data_version";

const statements = perConnection((db) => ({
  bump: db
    .insert(settings)
    .values({ key: DATA_VERSION_KEY, value: "1" })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`CAST(CAST(${settings.value} AS INTEGER) + 1 AS TEXT)` } })
    .returning({ value: settings.value })
    .prepare(),
}));

/** Read once per live request: raw (db/sqlite/open.ts perRawConnection says why). */
const readRaw = perRawConnection((sqlite) =>
  sqlite.prepare<{ value: string }, []>(`SELECT value FROM settings WHERE key = '${DATA_VERSION_KEY}'`),
);

/** The current data version (0 before any data was written). */
export function getDataVersion(h: DbHandle): number {
  const row = readRaw(rawDb(h)).get();
  return row ? Number(row.value) : 0;
}

/** Increments the data version; call inside the transaction that writes the bars. Returns the new value. */
export function bumpDataVersion(h: DbHandle): number {
  return Number(statements(rawDb(h)).bump.get()!.value);
}
