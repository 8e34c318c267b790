/** The MarketStore for an opened database: SQLite (the embedded default) or PostgreSQL (README.md § PostgreSQL). */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { pgMarketPort } from "../../db/pg/market-statements.ts";
import { sqliteMarketPort } from "../../db/sqlite/market-statements.ts";
import { marketStore, type MarketStoreOptions } from "./market-store.ts";
import type { MarketStore } from "./store.ts";

export type OpenedMarketDb = { kind: "sqlite"; sqlite: Database; db?: unknown; path: string } | { kind: "postgres"; sql: SQL };

export function openMarketStore(opened: OpenedMarketDb, opts: MarketStoreOptions = {}): MarketStore {
  const port = opened.kind === "sqlite" ? sqliteMarketPort(opened.sqlite, opened.path) : pgMarketPort(opened.sql);
  return marketStore(port, opts);
}
