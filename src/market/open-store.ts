/** The MarketStore for an opened database: SQLite (the embedded default) or PostgreSQL (README.md § PostgreSQL). */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { pgMarketStore } from "./pg/pg-store.ts";
import { sqliteMarketStore } from "./sqlite-store.ts";
import type { MarketStore } from "./store.ts";

export type OpenedMarketDb = { kind: "sqlite"; sqlite: Database; db?: unknown; path: string } | { kind: "postgres"; sql: SQL };

export function openMarketStore(opened: OpenedMarketDb): MarketStore {
  return opened.kind === "sqlite" ? sqliteMarketStore(opened.sqlite, opened.path) : pgMarketStore(opened.sql);
}
