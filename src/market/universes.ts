/** Universes: named, ordered symbol lists (src/market/README.md § Rules), read and extended over the market port. */
import type { DbHandle } from "./db-handle.ts";
import type { MarketReads, MarketWrites, Universe, UniverseSource } from "./market-port.ts";
import { answer, type Rule, run, synchronously } from "./rule.ts";
import { portOf } from "./sqlite-port.ts";

export type { Universe, UniverseSource };

/** The universe with its symbols in order, or null when there is none of that name. */
export function* universeRule(port: MarketReads, name: string): Rule<Universe | null> {
  const row = yield* answer(port.universe(name));
  if (!row) return null;
  const members = yield* answer(port.members(name));
  return { name, symbols: members.map((m) => m.symbol), source: row.source };
}

/** Every symbol that has at least one bar at any interval, alphabetical. */
export function* knownSymbolsRule(port: MarketReads): Rule<string[]> {
  const pairs = yield* answer(port.storedPairs());
  return [...new Set(pairs.map((p) => p[0]))].sort();
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
 * Creates the universe if missing, then appends the symbols it does not yet contain, in the given
 * order, inside the market write lock's transaction. Returns the symbols appended.
 */
export function* extendUniverseRule(
  tx: MarketWrites,
  name: string,
  symbols: readonly string[],
  source: UniverseSource,
  now: number,
): Rule<string[]> {
  yield* answer(tx.createUniverse(name, source, now));
  const members = yield* answer(tx.members(name));
  const appended = missingSymbols(
    members.map((m) => m.symbol),
    symbols,
  );
  const next = members.reduce((m, r) => Math.max(m, r.position), -1) + 1;
  yield* answer(tx.addMembers(name, appended, next));
  return appended;
}

/** Names of all universes of a SQLite database, alphabetical. */
export function listUniverses(h: DbHandle): string[] {
  return synchronously(portOf(h).universeNames());
}

/** A universe of a SQLite database, or null. */
export function getUniverse(h: DbHandle, name: string): Universe | null {
  return synchronously(run(universeRule(portOf(h), name)));
}

/** Every symbol with bars in a SQLite database, alphabetical. */
export function knownSymbols(h: DbHandle): string[] {
  return synchronously(run(knownSymbolsRule(portOf(h))));
}

/** extendUniverseRule on a SQLite database, in a transaction of its own. */
export function extendUniverse(h: DbHandle, name: string, symbols: readonly string[], source: UniverseSource, now: number): string[] {
  return synchronously(portOf(h).locked((tx) => run(extendUniverseRule(tx, name, symbols, source, now))));
}
