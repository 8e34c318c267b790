/** Universes: named, ordered symbol lists (src/market/README.md § Rules), through drizzle's typed queries on db/schema.ts. */
import { asc, eq, max, sql } from "drizzle-orm";
import { perConnection } from "../../db/open.ts";
import { universeMembers, universes } from "../../db/schema.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";

export type UniverseSource = "synthetic" | "imported";

export interface Universe {
  name: string;
  symbols: string[];
  source: UniverseSource;
}

const p = sql.placeholder;

const statements = perConnection((db) => ({
  names: db.select({ name: universes.name }).from(universes).orderBy(asc(universes.name)).prepare(),
  byName: db
    .select({ name: universes.name, source: universes.source })
    .from(universes)
    .where(eq(universes.name, p("name")))
    .prepare(),
  members: db
    .select({ symbol: universeMembers.symbol })
    .from(universeMembers)
    .where(eq(universeMembers.universe, p("name")))
    .orderBy(asc(universeMembers.position))
    .prepare(),
  create: db
    .insert(universes)
    .values({ name: p("name"), createdAt: p("now"), source: p("source") })
    .onConflictDoNothing()
    .prepare(),
  lastPosition: db
    .select({ p: max(universeMembers.position) })
    .from(universeMembers)
    .where(eq(universeMembers.universe, p("name")))
    .prepare(),
  add: db
    .insert(universeMembers)
    .values({ universe: p("name"), symbol: p("symbol"), position: p("position") })
    .prepare(),
}));

/** Names of all universes, alphabetical. */
export function listUniverses(h: DbHandle): string[] {
  return statements(rawDb(h))
    .names.all()
    .map((r) => r.name);
}

/** The universe with its symbols in order, or null when there is none of that name. */
export function getUniverse(h: DbHandle, name: string): Universe | null {
  const st = statements(rawDb(h));
  const u = st.byName.get({ name });
  if (!u) return null;
  const symbols = st.members.all({ name }).map((r) => r.symbol);
  return { name: u.name, symbols, source: u.source === "synthetic" ? "synthetic" : "imported" };
}

/**
 * Every symbol that has at least one bar at any interval, alphabetical. Raw SQL: a recursive index
 * skip-scan (one seek per distinct symbol instead of reading every bar), which drizzle's builder
 * does not express.
 */
export function knownSymbols(h: DbHandle): string[] {
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

/** The symbols a universe holding `existing` lacks, in the given order, each once. */
export function missingSymbols(existing: Iterable<string>, symbols: readonly string[]): string[] {
  const seen = new Set(existing);
  const missing: string[] = [];
  for (const s of symbols) {
    if (seen.has(s)) continue;
    seen.add(s);
    missing.push(s);
  }
  return missing;
}

/**
 * Creates the universe if missing, then appends the symbols it does not yet contain, in the
 * given order. Call inside a transaction. Returns the symbols appended.
 */
export function extendUniverse(h: DbHandle, name: string, symbols: readonly string[], source: UniverseSource, now: number): string[] {
  const st = statements(rawDb(h));
  st.create.run({ name, now, source });
  const appended = missingSymbols(
    st.members.all({ name }).map((r) => r.symbol),
    symbols,
  );
  let next = st.lastPosition.get({ name })?.p ?? -1;
  for (const symbol of appended) st.add.run({ name, symbol, position: ++next });
  return appended;
}
