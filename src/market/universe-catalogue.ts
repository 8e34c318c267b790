/**
 * What `GET /v1/universes` and `graph-stats universe list|show` tell about the stored data, as rules
 * over the market port's reads: each universe's members, stored intervals and first / last bar, and
 * per member and interval its first and last bar, bar count and the bars it misses against the
 * universe's calendar (docs/api.md § GET /v1/universes and GET /v1/universes/{name}). Nothing here reads a price.
 */
import { INTERVALS, type Interval } from "../engine/types.ts";
import { storedBySymbol } from "./bar-coverage.ts";
import type { BarSpan, BarTime, MarketReads, SymbolMetadata, UniverseSource } from "./market-port.ts";
import { answer, type Rule } from "./rule.ts";
import { formatLocal } from "./timestamps.ts";

/** One universe as the list shows it. */
export interface UniverseListing {
  name: string;
  symbols: number;
  intervals: Interval[];
  first_bar: string | null;
  last_bar: string | null;
  data_source: UniverseSource;
  data_version: number;
}

/** A member's bars at one interval; `missing` counts the universe's calendar bars between its first and last it lacks. */
export interface CoverageOut {
  first: string;
  last: string;
  bars: number;
  missing: number;
}

export interface UniverseMemberOut extends SymbolMetadata {
  symbol: string;
  coverage: Partial<Record<Interval, CoverageOut>>;
}

/** One universe in full: the listing's fields, its calendar per interval, and each member. */
export interface UniverseDetail extends Omit<UniverseListing, "symbols"> {
  calendar: Partial<Record<Interval, { first: string; last: string; bars: number }>>;
  symbols: UniverseMemberOut[];
}

/** The newest bar start (UTC ms) of a universe at one interval: the freshness /metrics reports. */
export interface LastBar {
  universe: string;
  interval: Interval;
  ts: number;
}

const label = (t: BarTime) => formatLocal(t[0], t[1]);

/** The earliest first and the latest last bar of some spans. */
function bounds(spans: Iterable<BarSpan>): { first: BarTime; last: BarTime } | null {
  let first: BarTime | null = null;
  let last: BarTime | null = null;
  for (const s of spans) {
    if (!first || s.first[0] < first[0]) first = s.first;
    if (!last || s.last[0] > last[0]) last = s.last;
  }
  return first && last ? { first, last } : null;
}

/** The stored intervals among `members`, finest first, each with the members holding it. */
function holders(members: readonly string[], stored: ReadonlyMap<string, Interval[]>): [Interval, string[]][] {
  return INTERVALS.map((iv): [Interval, string[]] => [iv, members.filter((s) => stored.get(s)?.includes(iv))]).filter(
    ([, h]) => h.length > 0,
  );
}

/** Every universe, alphabetical, and the newest bar of each at each of its intervals. */
export function* catalogueRule(port: MarketReads, version: number): Rule<{ universes: UniverseListing[]; lastBars: LastBar[] }> {
  const stored = storedBySymbol(yield* answer(port.storedPairs()));
  const names = yield* answer(port.universeNames());
  const rows: { name: string; source: UniverseSource; members: string[] }[] = [];
  for (const name of names) {
    const row = yield* answer(port.universe(name));
    const members = (yield* answer(port.members(name))).map((m) => m.symbol);
    rows.push({ name, source: row?.source ?? "imported", members });
  }
  // Each symbol's spans read once per interval, however many universes list it.
  const spans = new Map<Interval, Map<string, BarSpan>>();
  for (const [iv, symbols] of holders([...new Set(rows.flatMap((r) => r.members))], stored)) {
    spans.set(iv, yield* answer(port.barSpans(symbols, iv)));
  }
  const lastBars: LastBar[] = [];
  const universes = rows.map((r): UniverseListing => {
    const all: BarSpan[] = [];
    const intervals: Interval[] = [];
    for (const [iv, symbols] of holders(r.members, stored)) {
      const here = symbols.map((s) => spans.get(iv)?.get(s)).filter((s): s is BarSpan => s !== undefined);
      const b = bounds(here);
      if (!b) continue;
      intervals.push(iv);
      all.push(...here);
      lastBars.push({ universe: r.name, interval: iv, ts: b.last[0] });
    }
    const b = bounds(all);
    return {
      name: r.name,
      symbols: r.members.length,
      intervals,
      first_bar: b ? label(b.first) : null,
      last_bar: b ? label(b.last) : null,
      data_source: r.source,
      data_version: version,
    };
  });
  return { universes, lastBars };
}

/** How many entries of the ascending `calendar` lie in [from, to]. */
export function slotsBetween(calendar: readonly number[], from: number, to: number): number {
  const firstAtLeast = (x: number, strict: boolean) => {
    let lo = 0;
    let hi = calendar.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? calendar[mid]! <= x : calendar[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return Math.max(0, firstAtLeast(to, true) - firstAtLeast(from, false));
}

/** One universe with each member's coverage and metadata, or null when there is none of that name. */
export function* universeDetailRule(port: MarketReads, name: string, version: number): Rule<UniverseDetail | null> {
  const row = yield* answer(port.universe(name));
  if (!row) return null;
  const members = (yield* answer(port.members(name))).map((m) => m.symbol);
  const stored = storedBySymbol(yield* answer(port.storedPairs()));
  const metadata = yield* answer(port.metadata(members));
  const coverage = new Map<string, Partial<Record<Interval, CoverageOut>>>(members.map((s) => [s, {}]));
  const calendars: UniverseDetail["calendar"] = {};
  const all: BarSpan[] = [];
  for (const [iv, symbols] of holders(members, stored)) {
    const spans = yield* answer(port.barSpans(symbols, iv));
    const calendar = yield* answer(port.calendar(symbols, iv));
    const b = bounds(spans.values());
    if (!b) continue;
    all.push(...spans.values());
    calendars[iv] = { first: label(b.first), last: label(b.last), bars: calendar.length };
    for (const [s, span] of spans) {
      coverage.get(s)![iv] = {
        first: label(span.first),
        last: label(span.last),
        bars: span.bars,
        missing: slotsBetween(calendar, span.first[0], span.last[0]) - span.bars,
      };
    }
  }
  const b = bounds(all);
  return {
    name,
    intervals: Object.keys(calendars) as Interval[],
    first_bar: b ? label(b.first) : null,
    last_bar: b ? label(b.last) : null,
    data_source: row.source,
    data_version: version,
    calendar: calendars,
    symbols: members.map((symbol) => ({
      symbol,
      name: metadata.get(symbol)?.name ?? null,
      sector: metadata.get(symbol)?.sector ?? null,
      industry: metadata.get(symbol)?.industry ?? null,
      coverage: coverage.get(symbol)!,
    })),
  };
}
