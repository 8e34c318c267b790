/** The market layer works on the raw bun:sqlite connection; callers may pass it or openDatabase's result. */
import type { Database } from "bun:sqlite";

export type DbHandle = Database | { sqlite: Database };

export function rawDb(h: DbHandle): Database {
  return "sqlite" in h ? h.sqlite : h;
}
