/**
 * The ECharts option of the portfolio weights: the ten largest weights at the (latest) as-of as
 * horizontal bars, named on the left and figured on the right, in the colour of the stock's
 * community (as in the network), and one grey bar for all the others together; hovering it lists
 * every one of them, and the panel's table has every stock. A rolling answer marks each bar with
 * its weight at the first as-of too. Fifty stacked bands of one bar per as-of could not be read
 * without hovering each (#42 item 7). The others' bar, often most of the portfolio, would shrink
 * the ten to slivers: past 1.5 times the largest of them it is cut at the scale's end.
 */
import { isoDate } from "./format.ts";
import { escapeHtml as e } from "./html.ts";
import type { NetworkModel } from "./network-data.ts";
import { communityColour, communityName } from "./palette.ts";
import { swatch } from "./tooltips.ts";

export const WEIGHT_NAMES: Record<string, string> = {
  hrp: "hierarchical risk parity",
  equal: "equal weights",
  inverse_variance: "inverse variance",
};

/** Bars for the largest weights; the rest share one. */
export const TOP_WEIGHTS = 10;
/** The most stocks the "others" tooltip names; the table has them all. */
const LISTED = 60;
const OTHERS_COLOUR = "#8a8f98";
const INK = "#2b3340";

export interface StockWeight {
  symbol: string;
  community: number | null;
  /** At the latest as-of and the first (the same for a snapshot); null where the stock was not in the window. */
  latest: number | null;
  first: number | null;
}

/** One bar: a stock, or (`symbol` "") the others together, whose `members` it lists. */
export interface WeightBar extends StockWeight {
  label: string;
  members: StockWeight[];
}

/** The scale's end for the largest bar `v`: 10 % more, up to a whole step (1 % under 10 %, then 5 %, then 10 %). */
export function scaleEnd(v: number): number {
  const step = v < 0.1 ? 0.01 : v < 0.5 ? 0.05 : 0.1;
  return Math.min(1, Math.ceil((v * 1.1) / step - 1e-9) * step);
}

/** Where the scale ends when the others' bar is cut (more than 1.5 times the largest of the rest), else undefined. */
export function cutAt(bars: WeightBar[]): number | undefined {
  const own = Math.max(0, ...bars.filter((b) => b.symbol).flatMap((b) => [b.latest ?? 0, b.first ?? 0]));
  const others = bars.find((b) => !b.symbol)?.latest ?? 0;
  return others > 1.5 * own ? scaleEnd(own) : undefined;
}

const sum = (xs: (number | null)[]) => (xs.some((x) => x !== null) ? xs.reduce<number>((a, x) => a + (x ?? 0), 0) : null);
export const percent = (v: number | null) => (v === null ? "—" : `${(Math.round(v * 1000) / 10).toFixed(1)}%`);

/** Every stock's weights, largest latest first (nulls last, ties in the answer's order). */
export function stockWeights(model: NetworkModel): StockWeight[] {
  const w = model.weights;
  if (!w) return [];
  const community = new Map(model.stocks.map((s) => [s.symbol, s.community]));
  return Object.entries(w.bySymbol)
    .map(([symbol, row], i) => ({
      i,
      s: { symbol, community: community.get(symbol) ?? null, latest: row[row.length - 1] ?? null, first: row[0] ?? null },
    }))
    .sort((a, b) => (b.s.latest ?? -Infinity) - (a.s.latest ?? -Infinity) || a.i - b.i)
    .map((x) => x.s);
}

/** The bars drawn: the `top` largest and the others together, or every stock when that is at most one more. */
export function weightBars(model: NetworkModel, top = TOP_WEIGHTS): WeightBar[] {
  const all = stockWeights(model);
  const own = (s: StockWeight): WeightBar => ({ ...s, label: s.symbol, members: [] });
  if (all.length <= top + 1) return all.map(own);
  const rest = all.slice(top);
  const others: WeightBar = {
    symbol: "",
    label: `Others (${rest.length})`,
    community: null,
    latest: sum(rest.map((s) => s.latest)),
    first: sum(rest.map((s) => s.first)),
    members: rest,
  };
  return [...all.slice(0, top).map(own), others];
}

function barTooltip(bar: WeightBar, dates: string[]): string {
  const rolling = dates.length > 1;
  const when = (v: number | null, d: string | undefined) => `<tr><th>${e(d ?? "")}</th><td>${percent(v)}</td></tr>`;
  const figures = rolling ? `${when(bar.first, dates[0])}${when(bar.latest, dates[dates.length - 1])}` : when(bar.latest, dates[0]);
  if (bar.symbol) {
    return `<div class="tt-title">${swatch(bar.community)}${e(bar.symbol)}</div><div class="tt-sub">${e(communityName(bar.community))}</div><table class="tt-table">${figures}</table>`;
  }
  const listed = bar.members
    .slice(0, LISTED)
    .map((m) => `<span>${swatch(m.community)}${e(m.symbol)}</span><span>${percent(m.latest)}</span>`)
    .join("");
  const more =
    bar.members.length > LISTED ? `<div class="tt-sub">and ${bar.members.length - LISTED} more: see the table of weights</div>` : "";
  return `<div class="tt-title">${e(bar.label)}</div><table class="tt-table">${figures}</table><div class="tt-sub">Each, as of ${e(dates[dates.length - 1] ?? "")}:</div><div class="tt-grid">${listed}</div>${more}`;
}

export function weightsOption(model: NetworkModel) {
  const w = model.weights;
  const dates = (w?.dates ?? [model.asof]).map(isoDate);
  const rolling = dates.length > 1;
  const bars = weightBars(model);
  const latestName = dates[dates.length - 1] ?? "";
  const cut = cutAt(bars);
  const series: object[] = [
    {
      type: "bar",
      name: latestName,
      data: bars.map((b) => ({ value: b.latest, itemStyle: { color: b.symbol ? communityColour(b.community) : OTHERS_COLOUR } })),
      itemStyle: { color: OTHERS_COLOUR }, // the legend's key; each bar has its own
      barMaxWidth: 18,
    },
  ];
  if (rolling) {
    // The first as-of's weight: a tick across each bar (a line series without its line).
    series.push({
      type: "line",
      name: dates[0],
      data: bars.map((b) => [b.first, b.label]),
      symbol: "rect",
      symbolSize: [3, 16],
      lineStyle: { opacity: 0 },
      itemStyle: { color: INK },
      z: 3,
    });
  }
  return {
    animation: false,
    grid: { left: 8, right: 8, top: rolling ? 28 : 8, bottom: 4, containLabel: true },
    legend: rolling ? { top: 0, right: 0, itemWidth: 14, itemHeight: 8, textStyle: { color: "#5b6472", fontSize: 11 } } : undefined,
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      className: "gs-tooltip",
      confine: true,
      formatter: (params: { dataIndex: number }[]) => {
        const bar = bars[params[0]?.dataIndex ?? -1];
        return bar ? barTooltip(bar, dates) : "";
      },
    },
    // Names on the left; the figures on the right, a column of their own, clear of bars and ticks.
    yAxis: [
      {
        type: "category",
        data: bars.map((b) => b.label),
        inverse: true,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: "#c9ced6" } },
        axisLabel: { color: INK, fontSize: 11, interval: 0 },
      },
      {
        type: "category",
        position: "right",
        data: bars.map((b) => percent(b.latest)),
        inverse: true,
        axisTick: { show: false },
        axisLine: { show: false },
        axisLabel: { color: INK, fontSize: 11, interval: 0, fontFamily: "monospace" },
      },
    ],
    xAxis: {
      type: "value",
      min: 0,
      max: cut,
      axisLabel: { color: "#5b6472", hideOverlap: true, formatter: (v: number) => `${+(v * 100).toFixed(1)}%` },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series,
  };
}

/** The chart's text alternative: every bar and its figure. */
export function weightsLabel(model: NetworkModel): string {
  const bars = weightBars(model);
  const others = bars.find((b) => !b.symbol);
  const head = others
    ? `The ${bars.length - 1} largest portfolio weights and the other ${others.members.length} stocks together`
    : `The portfolio weights of all ${bars.length} stocks`;
  return `Bar chart. ${head}: ${bars.map((b) => `${b.label} ${percent(b.latest)}`).join(", ")}.`;
}

/** Every stock's weight as table rows (the chart shows ten), largest first. */
export function weightsTableHtml(model: NetworkModel): string {
  const dates = (model.weights?.dates ?? []).map(isoDate);
  const rolling = dates.length > 1;
  const rows = stockWeights(model)
    .map(
      (s) =>
        `<tr><th scope="row">${swatch(s.community)}${e(s.symbol)}</th><td>${e(communityName(s.community))}</td>${rolling ? `<td>${percent(s.first)}</td>` : ""}<td>${percent(s.latest)}</td></tr>`,
    )
    .join("");
  const first = rolling ? `<th scope="col">${e(dates[0])}</th>` : "";
  return `<caption>Portfolio weight of each stock, largest first</caption><thead><tr><th scope="col">Stock</th><th scope="col">Community</th>${first}<th scope="col">${e(dates[dates.length - 1] ?? "")}</th></tr></thead><tbody>${rows}</tbody>`;
}

/** The caption under the weights chart (plain text). */
export function weightsCaption(model: NetworkModel): string {
  const w = model.weights;
  if (!w) return "";
  const name = WEIGHT_NAMES[w.method] ?? w.method;
  const n = Object.keys(w.bySymbol).length;
  const shown = n > TOP_WEIGHTS + 1 ? `the ${TOP_WEIGHTS} largest of ${n} stocks and the rest together` : `${n} stocks`;
  const cut = cutAt(weightBars(model)) !== undefined ? " (its bar cut at the scale's end)" : "";
  if (w.dates.length <= 1)
    return `Portfolio weights (${name}) as of ${isoDate(w.dates[0] ?? model.asof)}: ${shown}${cut}. Hover a bar for its stocks.`;
  const turns = (w.turnover ?? []).filter((t): t is number => typeof t === "number");
  const mean = turns.length ? ` · mean one-way turnover ${percent(turns.reduce((a, b) => a + b, 0) / turns.length)}` : "";
  return `Portfolio weights (${name}) as of ${isoDate(w.dates[w.dates.length - 1])}: ${shown}${cut}; the ticks are the weights at ${isoDate(w.dates[0])}, the first of ${w.dates.length} as-of dates${mean}. Hover a bar for its stocks.`;
}
