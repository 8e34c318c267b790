/** Universes: named, ordered symbol lists (DECISIONS §1). */
import { rawDb, type DbHandle } from "./db-handle.ts";

export type UniverseSource = "synthetic" | "imported";

export interface Universe {
  name: string;
  symbols: string[];
  source: UniverseSource;
}

/** Names of all universes, alphabetical. */
export function listUniverses(h: DbHandle): string[] {
  return rawDb(h)
    .query<{ name: string }, []>("SELECT name FROM universes ORDER BY name")
    .all()
    .map((r) => r.name);
}

/** The universe with its symbols in order, or null when there is none of that name. */
export function getUniverse(h: DbHandle, name: string): Universe | null {
  const db = rawDb(h);
  const u = db.query<{ name: string; source: string }, [string]>("SELECT name, source FROM universes WHERE name = ?").get(name);
  if (!u) return null;
  const symbols = db
    .query<{ symbol: string }, [string]>("SELECT symbol FROM universe_members WHERE universe = ? ORDER BY position")
    .all(name)
    .map((r) => r.symbol);
  return { name: u.name, symbols, source: u.source === "synthetic" ? "synthetic" : "imported" };
}

/** Every symbol that has at least one bar at any interval, alphabetical. */
export function knownSymbols(h: DbHandle): string[] {
  // Index skip-scan: one seek per distinct symbol instead of reading every bar.
  return rawDb(h)
    .query<{ s: string }, []>(
      `WITH RECURSIVE s(s) AS (
         SELECT MIN(symbol) FROM bars
         UNION ALL SELECT (SELECT MIN(symbol) FROM bars WHERE symbol > s.s) FROM s WHERE s.s IS NOT NULL)
       SELECT s FROM s WHERE s IS NOT NULL`,
    )
    .all()
    .map((r) => r.s);
}

/**
 * Creates the universe if missing, then appends the symbols it does not yet contain, in the
 * given order. Call inside a transaction. Returns the symbols appended.
 */
export function extendUniverse(h: DbHandle, name: string, symbols: readonly string[], source: UniverseSource, now: number): string[] {
  const db = rawDb(h);
  db.query("INSERT INTO universes (name, created_at, source) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING").run(name, now, source);
  const existing = new Set(
    db.query<{ symbol: string }, [string]>("SELECT symbol FROM universe_members WHERE universe = ?").all(name).map((r) => r.symbol),
  );
  let next =
    db.query<{ p: number | null }, [string]>("SELECT MAX(position) AS p FROM universe_members WHERE universe = ?").get(name)?.p ?? -1;
  const add = db.query("INSERT INTO universe_members (universe, symbol, position) VALUES (?, ?, ?)");
  const appended: string[] = [];
  for (const s of symbols) {
    if (existing.has(s)) continue;
    existing.add(s);
    add.run(name, s, ++next);
    appended.push(s);
  }
  return appended;
}
