/**
 * Tooltip markup for the network charts. ECharts' default tooltips carry inline style attributes,
 * which the page's Content-Security-Policy refuses, so these use classes from styles.css only.
 */
import { metricLabel, metricValue } from "./format.ts";
import { escapeHtml as e } from "./html.ts";
import { communityClass, communityName, lineClass } from "./palette.ts";

export function swatch(community: number | null): string {
  return `<span class="swatch ${communityClass(community)}"></span>`;
}

/** A short bar in the colour of the rolling chart's `nth` line. */
export function lineSwatch(nth: number): string {
  return `<span class="swatch line ${lineClass(nth)}"></span>`;
}

/** " (p05–p95 a–b)": a value's bootstrap band. */
const bandText = (lo: number | null | undefined, hi: number | null | undefined) =>
  ` <span class="tt-community">(p05–p95 ${metricValue(lo)}–${metricValue(hi)})</span>`;

/** A node: its symbol, community, sector where known, and every metric (with its band under bootstrap). */
export function nodeTooltip(
  symbol: string,
  community: number | null,
  values: Record<string, number | null>,
  sector: string | null = null,
  band: { p05: Record<string, number | null>; p95: Record<string, number | null> } | null = null,
): string {
  const rows = Object.entries(values)
    .map(([m, v]) => `<tr><th>${e(metricLabel(m))}</th><td>${metricValue(v)}${band ? bandText(band.p05[m], band.p95[m]) : ""}</td></tr>`)
    .join("");
  return `<div class="tt-title">${swatch(community)}${e(symbol)}</div><div class="tt-sub">${e(communityName(community))}${sector ? ` · ${e(sector)}` : ""}</div><table class="tt-table">${rows}</table>`;
}

/** An edge: the pair, its correlation and, with bootstrap, its reliability. */
export function edgeTooltip(source: string, target: string, corr: number, reliability: number | null = null): string {
  const held = reliability === null ? "" : `<div>reliability ${Math.round(reliability * 100)}% of resamples</div>`;
  return `<div class="tt-title">${e(source)} — ${e(target)}</div><div>ρ = ${metricValue(corr)}</div>${held}`;
}

/** The rolling chart at one date: each shown stock's value, highest first, marked with its line's colour. */
export function seriesTooltip(
  date: string,
  metric: string,
  rows: { symbol: string; line: number; community: number | null; value: number | null; band?: [number | null, number | null] | null }[],
): string {
  const body = [...rows]
    .sort((a, b) => (b.value ?? -Infinity) - (a.value ?? -Infinity))
    .map(
      (r) =>
        `<tr><th>${lineSwatch(r.line)}${e(r.symbol)} <span class="tt-community">${e(communityName(r.community))}</span></th><td>${metricValue(r.value)}${r.band ? bandText(r.band[0], r.band[1]) : ""}</td></tr>`,
    )
    .join("");
  return `<div class="tt-title">${e(date)}</div><div class="tt-sub">${e(metricLabel(metric))}</div><table class="tt-table">${body}</table>`;
}
