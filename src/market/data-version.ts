/**
 * A counter in `settings.data_version`, bumped by every write of bars so caches keyed by it
 * (series, demo payloads) invalidate — also across processes sharing the database file.
 */
import { rawDb, type DbHandle } from "./db-handle.ts";

const KEY = "data_version";

/** The current data version (0 before any data was written). */
export function getDataVersion(h: DbHandle): number {
  const row = rawDb(h).query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(KEY);
  return row ? Number(row.value) : 0;
}

/** Increments the data version; call inside the transaction that writes the bars. Returns the new value. */
export function bumpDataVersion(h: DbHandle): number {
  const row = rawDb(h)
    .query<{ value: string }, [string]>(
      `INSERT INTO settings (key, value) VALUES (?, '1')
       ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
       RETURNING value`,
    )
    .get(KEY);
  return Number(row!.value);
}
