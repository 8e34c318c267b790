/**
 * The Data panel's figures as markup (docs/dashboard.md § Data: universes, coverage and freshness):
 * the universes with their freshness, and one universe's coverage per symbol and interval. Pure, so the unit tests hold
 * the rules: a universe is stale when its newest daily bar is older than STALE_AFTER_DAYS, the
 * same 4 days as the GraphStatsUniverseStale alert, and the synthetic sample is never stale.
 */
import { escapeHtml as e } from "./html.ts";

/** As deploy/prometheus/rules.yml's graphstats:universe_stale_after:days: a weekend and a holiday after the last trading day. */
export const STALE_AFTER_DAYS = 4;
const DAY_MS = 86_400_000;

export interface UniverseListing {
  name: string;
  symbols: number;
  intervals: string[];
  first_bar: string | null;
  last_bar: string | null;
  data_source: string;
  data_version: number;
}

/** GET /dashboard/api/universes: the API's list, each universe's newest bar (UTC ms) per interval, and the server's clock. */
export interface DataCatalogue {
  universes: UniverseListing[];
  last_bars: { universe: string; interval: string; ts: number }[];
  checked_at: number;
}

export interface Coverage {
  first: string;
  last: string;
  bars: number;
  missing: number;
}

export interface UniverseDetail extends Omit<UniverseListing, "symbols"> {
  calendar: Record<string, { first: string; last: string; bars: number }>;
  symbols: { symbol: string; name: string | null; sector: string | null; industry: string | null; coverage: Record<string, Coverage> }[];
}

export interface Freshness {
  /** The interval judged: the daily bars when stored (as the alert), else the universe's newest. */
  interval: string | null;
  ageDays: number | null;
  state: "fresh" | "stale" | "sample" | "empty";
  text: string;
}

/** A bar's local time, shorter: a daily bar's date alone, an intraday bar to the minute with its offset. */
export function barTime(t: string | null): string {
  if (!t) return "—";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(t);
  if (!m) return t;
  return m[2] === "00:00" ? m[1] : `${m[1]} ${m[2]}${m[3] ? ` ${m[3]}` : ""}`;
}

/** "5 h", "1.5 days": how long ago a bar started. */
export function ageText(days: number): string {
  if (days < 1) return `${Math.max(0, Math.round(days * 24))} h`;
  return `${days.toFixed(1)} days`;
}

/** How old `u`'s newest bar is at `now` (ms), and whether that is stale. */
export function freshness(u: UniverseListing, lastBars: DataCatalogue["last_bars"], now: number, staleAfter = STALE_AFTER_DAYS): Freshness {
  const mine = lastBars.filter((b) => b.universe === u.name);
  const daily = mine.find((b) => b.interval === "1d");
  const judged = daily ?? mine.reduce<(typeof mine)[number] | null>((best, b) => (!best || b.ts > best.ts ? b : best), null);
  if (!judged) return { interval: null, ageDays: null, state: "empty", text: "No bars" };
  const ageDays = (now - judged.ts) / DAY_MS;
  const age = `newest ${judged.interval} bar ${ageText(ageDays)} old`;
  if (u.data_source === "synthetic")
    return { interval: judged.interval, ageDays, state: "sample", text: `Sample data, not refreshed (${age})` };
  // Only the daily bars are held to the threshold, as by the alert: intraday-only universes show their age.
  if (daily && ageDays > staleAfter) return { interval: "1d", ageDays, state: "stale", text: `Stale: ${age}` };
  return { interval: judged.interval, ageDays, state: "fresh", text: `Fresh: ${age}` };
}

/** The universes as table rows (caption and head included): name, symbols, intervals, first/last bar, source, version, freshness. */
export function universesTableHtml(c: DataCatalogue, staleAfter = STALE_AFTER_DAYS): string {
  if (c.universes.length === 0) {
    return `<caption>Stored universes</caption><tbody><tr><td>No universe is stored yet: import one with <code>graph-stats import</code>.</td></tr></tbody>`;
  }
  const rows = c.universes
    .map((u) => {
      const f = freshness(u, c.last_bars, c.checked_at, staleAfter);
      return `<tr data-universe="${e(u.name)}"><th scope="row">${e(u.name)}</th><td>${u.symbols}</td><td>${e(u.intervals.join(", ") || "—")}</td><td>${e(barTime(u.first_bar))}</td><td>${e(barTime(u.last_bar))}</td><td>${e(u.data_source)}</td><td>${u.data_version}</td><td><span class="freshness ${f.state}">${e(f.text)}</span></td></tr>`;
    })
    .join("");
  return `<caption>Stored universes; a universe is stale when its newest daily bar is more than ${staleAfter} days old</caption><thead><tr><th scope="col">Universe</th><th scope="col">Symbols</th><th scope="col">Intervals</th><th scope="col">First bar</th><th scope="col">Last bar</th><th scope="col">Data source</th><th scope="col">Data version</th><th scope="col">Freshness</th></tr></thead><tbody>${rows}</tbody>`;
}

/** One line per stored interval: the universe's calendar, the bars every member is counted against. */
export function calendarText(d: UniverseDetail): string {
  const parts = d.intervals
    .filter((iv) => d.calendar[iv])
    .map((iv) => {
      const cal = d.calendar[iv]!;
      return `${iv}: ${cal.bars} bar${cal.bars === 1 ? "" : "s"}, ${barTime(cal.first)} to ${barTime(cal.last)}`;
    });
  return parts.length ? `Calendar of ${d.name}: ${parts.join("; ")}.` : `${d.name} has no bars yet.`;
}

/** A row per member and stored interval: name and sector where known, first/last bar, bars, bars missing against the calendar. */
export function coverageTableHtml(d: UniverseDetail): string {
  const rows = d.symbols
    .flatMap((s) => {
      const ivs = d.intervals.length ? d.intervals : [""];
      return ivs.map((iv, i) => {
        const c = iv ? s.coverage[iv] : undefined;
        const who =
          i === 0
            ? `<th scope="row" rowspan="${ivs.length}">${e(s.symbol)}</th><td rowspan="${ivs.length}">${e(s.name ?? "—")}</td><td rowspan="${ivs.length}">${e(s.sector ?? "—")}</td>`
            : "";
        const cells = c
          ? `<td>${e(barTime(c.first))}</td><td>${e(barTime(c.last))}</td><td>${c.bars}</td><td${c.missing > 0 ? ` class="missing"` : ""}>${c.missing}</td>`
          : `<td colspan="4" class="missing">no bars at this interval</td>`;
        return `<tr data-symbol="${e(s.symbol)}" data-interval="${e(iv)}">${who}<td>${e(iv || "—")}</td>${cells}</tr>`;
      });
    })
    .join("");
  return `<caption>Coverage of ${e(d.name)}: ${d.symbols.length} symbol${d.symbols.length === 1 ? "" : "s"}</caption><thead><tr><th scope="col">Symbol</th><th scope="col">Name</th><th scope="col">Sector</th><th scope="col">Interval</th><th scope="col">First bar</th><th scope="col">Last bar</th><th scope="col">Bars</th><th scope="col">Missing</th></tr></thead><tbody>${rows}</tbody>`;
}
