/**
 * The migrations, embedded as text so that the single compiled binary carries them.
 * Every entry of db/migrations/meta/_journal.json must be listed here (a test checks it).
 */
import init from "./migrations/0000_init.sql" with { type: "text" };

export interface Migration {
  tag: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [{ tag: "0000_init", sql: init }];
