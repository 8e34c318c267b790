/**
 * Writes over the market port that change what answers carry without adding bars: symbols'
 * metadata (`import-metadata`), members taken out of a universe, a universe deleted (and, with
 * purge, the bars no other universe lists). Each runs in one transaction under the market write
 * lock and bumps the data version when it changed anything, so no cached answer outlives it.
 */
import type { MarketPort, MarketWrites, SymbolMetadata } from "./market-port.ts";
import { answer, type Rule, run } from "./rule.ts";

/** Runs `write` under the lock; bumps the data version (and tells the port) when it reports a change. */
function* changing<T>(port: MarketPort, write: (tx: MarketWrites) => Rule<{ changed: boolean; value: T }>): Rule<T> {
  const out = yield* answer(
    port.locked((tx) =>
      run(
        (function* () {
          const r = yield* write(tx);
          const version = r.changed ? yield* answer(tx.bumpDataVersion()) : null;
          return { ...r, version };
        })(),
      ),
    ),
  );
  if (out.version !== null) port.bumped?.(out.version);
  return out.value;
}

/** Replaces the metadata of each row's symbol; returns how many rows changed. */
export function* importMetadataRule(port: MarketPort, rows: readonly (SymbolMetadata & { symbol: string })[], now: number): Rule<number> {
  return yield* changing(port, function* (tx) {
    const n = yield* answer(tx.upsertMetadata(rows, now));
    return { changed: n > 0, value: n };
  });
}

/** What `universe remove` did: the members taken out, and those named that were not members. */
export interface Removed {
  removed: string[];
  notMembers: string[];
}

/** Takes `symbols` out of the universe's members; their bars stay (other universes may list them). Null when there is no such universe. */
export function* removeMembersRule(port: MarketPort, name: string, symbols: readonly string[]): Rule<Removed | null> {
  return yield* changing(port, function* (tx) {
    if (!(yield* answer(tx.universe(name)))) return { changed: false, value: null };
    const members = new Set((yield* answer(tx.members(name))).map((m) => m.symbol));
    const removed = [...new Set(symbols)].filter((s) => members.has(s));
    const notMembers = [...new Set(symbols)].filter((s) => !members.has(s));
    if (removed.length > 0) yield* answer(tx.removeMembers(name, removed));
    return { changed: removed.length > 0, value: { removed, notMembers } };
  });
}

/** What `universe delete` did: its members, and with purge the symbols whose bars were deleted (listed by no other universe). */
export interface Deleted {
  members: string[];
  purged: string[];
  barsDeleted: number;
}

/** Deletes the universe; with `purge` also every bar of its members that no other universe lists. Null when there is none. */
export function* deleteUniverseRule(port: MarketPort, name: string, purge: boolean): Rule<Deleted | null> {
  return yield* changing(port, function* (tx) {
    if (!(yield* answer(tx.universe(name)))) return { changed: false, value: null };
    const members = (yield* answer(tx.members(name))).map((m) => m.symbol);
    yield* answer(tx.deleteUniverse(name));
    let purged: string[] = [];
    let barsDeleted = 0;
    if (purge) {
      const listed = new Set<string>();
      for (const other of yield* answer(tx.universeNames())) for (const m of yield* answer(tx.members(other))) listed.add(m.symbol);
      purged = members.filter((s) => !listed.has(s));
      if (purged.length > 0) barsDeleted = yield* answer(tx.deleteBars(purged));
    }
    return { changed: true, value: { members, purged, barsDeleted } };
  });
}
