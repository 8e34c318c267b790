/**
 * The ECharts option of the portfolio weights. A snapshot is one bar per stock, in the colour of its
 * community (as in the network); a rolling answer is one stacked bar per as-of, one series per stock
 * (each bar sums to 1), so a shift of weight between stocks reads as the bands changing thickness.
 * Stocks follow the dendrogram's leaf order when there is one (HRP's clusters then sit together),
 * else the latest weight, largest first. Up to seven stocks each take an Okabe–Ito colour
 * (palette.ts); past that, stacked bands take their community's colour (as in the network), grouped
 * by community, so the bars read as the weight of each community, with a white edge between stocks.
 */
import { isoDate, metricValue } from "./format.ts";
import { escapeHtml as e } from "./html.ts";
import type { NetworkModel, WeightsModel } from "./network-data.ts";
import { communityColour, LINE_COLOURS, lineColour } from "./palette.ts";
import { lineSwatch, swatch } from "./tooltips.ts";

export const WEIGHT_NAMES: Record<string, string> = {
  hrp: "hierarchical risk parity",
  equal: "equal weights",
  inverse_variance: "inverse variance",
};

const latest = (w: WeightsModel, s: string): number | null => {
  const row = w.bySymbol[s] ?? [];
  return row[row.length - 1] ?? null;
};

/** The stocks in drawing order: leaf order first (where known), then the rest by latest weight. */
export function weightOrder(model: NetworkModel): string[] {
  const w = model.weights;
  if (!w) return [];
  const symbols = Object.keys(w.bySymbol);
  const leaf = new Map((model.hierarchy?.leaf_order ?? []).map((s, i) => [s, i]));
  return symbols
    .map((s, i) => ({ s, i, o: leaf.get(s), v: latest(w, s) }))
    .sort((a, b) => {
      if (a.o !== undefined || b.o !== undefined) return (a.o ?? Infinity) - (b.o ?? Infinity) || a.i - b.i;
      return (b.v ?? -Infinity) - (a.v ?? -Infinity) || a.i - b.i;
    })
    .map((x) => x.s);
}

const axisText = { color: "#5b6472" };
const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;

export function weightsOption(model: NetworkModel, width: number) {
  const w = model.weights;
  const symbols = weightOrder(model);
  const community = new Map(model.stocks.map((s) => [s.symbol, s.community]));
  const yAxis = {
    type: "value",
    name: "Weight",
    nameTextStyle: { ...axisText, align: "left" },
    min: 0,
    axisLabel: { ...axisText, formatter: percent },
    splitLine: { lineStyle: { color: "#eceef2" } },
  };
  const base = { animation: false, yAxis };
  if (!w || w.dates.length <= 1) {
    // One as-of: a bar per stock.
    const fontSize = symbols.length > 30 ? 9 : symbols.length > 15 ? 10 : 11;
    return {
      ...base,
      grid: { left: 8, right: 16, top: 28, bottom: 4, containLabel: true },
      tooltip: {
        trigger: "item",
        className: "gs-tooltip",
        confine: true,
        formatter: (p: { name: string; value: number | null }) =>
          `<div class="tt-title">${swatch(community.get(p.name) ?? null)}${e(p.name)}</div><div>Weight ${metricValue(p.value)}</div>`,
      },
      xAxis: {
        type: "category",
        data: symbols,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: "#c9ced6" } },
        axisLabel: { color: "#2b3340", fontSize, interval: 0, rotate: symbols.length * 44 > width ? 90 : 0 },
      },
      series: [
        {
          type: "bar",
          name: "Weight",
          data: symbols.map((s) => ({
            value: w ? latest(w, s) : null,
            itemStyle: { color: communityColour(community.get(s) ?? null) },
          })),
          barMaxWidth: 28,
        },
      ],
    };
  }
  // Over time: stacked bars, one series per stock.
  const dates = w.dates.map(isoDate);
  const byCommunity = symbols.length > LINE_COLOURS.length;
  const stacked = byCommunity
    ? symbols
        .map((s, i) => ({ s, i, c: community.get(s) ?? null }))
        .sort((a, b) => (a.c ?? Infinity) - (b.c ?? Infinity) || a.i - b.i)
        .map((x) => x.s)
    : symbols;
  const mark = (s: string, nth: number) => (byCommunity ? swatch(community.get(s) ?? null) : lineSwatch(nth));
  return {
    ...base,
    yAxis: { ...yAxis, max: 1 },
    grid: { left: 8, right: 16, top: 28, bottom: 4, containLabel: true },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      className: "gs-tooltip",
      confine: true,
      formatter: (params: { seriesName: string; seriesIndex: number; dataIndex: number; value: number | null }[]) => {
        if (!params.length) return "";
        const i = params[0].dataIndex;
        const rows = params
          .filter((p) => p.value !== null && p.value !== undefined)
          .sort((a, b) => (b.value ?? 0) - (a.value ?? 0))
          .map((p) => `<tr><th>${mark(p.seriesName, p.seriesIndex)}${e(p.seriesName)}</th><td>${metricValue(p.value)}</td></tr>`)
          .join("");
        const turnover = w.turnover?.[i];
        const sub = typeof turnover === "number" ? `<div class="tt-sub">Turnover ${metricValue(turnover)}</div>` : "";
        return `<div class="tt-title">${e(dates[i] ?? "")}</div>${sub}<table class="tt-table">${rows}</table>`;
      },
    },
    xAxis: {
      type: "category",
      data: dates,
      axisLabel: { ...axisText, hideOverlap: true, formatter: (v: string) => v.slice(5) },
      axisLine: { lineStyle: { color: "#c9ced6" } },
    },
    series: stacked.map((s, nth) => ({
      type: "bar",
      name: s,
      stack: "weights",
      data: w.bySymbol[s],
      barCategoryGap: "20%",
      itemStyle: {
        color: byCommunity ? communityColour(community.get(s) ?? null) : lineColour(nth),
        borderColor: "#ffffff",
        borderWidth: 0.5,
      },
      emphasis: { focus: "series" },
    })),
  };
}

/** The caption under the weights chart (plain text). */
export function weightsCaption(model: NetworkModel): string {
  const w = model.weights;
  if (!w) return "";
  const name = WEIGHT_NAMES[w.method] ?? w.method;
  const n = Object.keys(w.bySymbol).length;
  if (w.dates.length <= 1)
    return `Portfolio weights (${name}) of ${n} stocks as of ${isoDate(w.dates[0] ?? model.asof)}. Hover a bar for its figure.`;
  const turns = (w.turnover ?? []).filter((t): t is number => typeof t === "number");
  const mean = turns.length ? ` · mean one-way turnover ${percent(turns.reduce((a, b) => a + b, 0) / turns.length)}` : "";
  return `Portfolio weights (${name}) of ${n} stocks at ${w.dates.length} as-of dates, each bar summing to 100%${mean}. Hover a bar for each stock's weight.`;
}
