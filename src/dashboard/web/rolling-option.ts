/**
 * The ECharts option of the rolling chart: one line per chosen stock, each in its own colour
 * (stocks of one community would otherwise look alike); the tooltip names each one's community.
 * With bootstrap, each line sits in a shaded band from its 5th to its 95th percentile.
 */
import { isoDate, metricLabel } from "./format.ts";
import type { NetworkModel } from "./network-data.ts";
import { LINE_COLOURS, lineColour } from "./palette.ts";
import { seriesTooltip } from "./tooltips.ts";

/** Once every colour is taken, the next round of lines is dashed, then dotted. */
const DASHES = ["solid", "dashed", "dotted"] as const;

/** Rough height (px) of a wrapping legend, so the plot starts below it instead of under it. */
function legendHeight(symbols: string[], width: number): number {
  const itemsWidth = symbols.reduce((sum, s) => sum + 7 * s.length + 44, 0);
  return Math.max(1, Math.ceil(itemsWidth / Math.max(200, width))) * 22;
}

export function rollingOption(model: NetworkModel, metric: string, symbols: string[], width: number) {
  const narrow = width < 480;
  const rolling = model.rolling;
  const dates = (rolling?.dates ?? []).map(isoDate);
  const bySymbol = new Map(model.stocks.map((s) => [s.symbol, s]));
  const series = symbols
    .filter((sym) => rolling?.series[sym])
    .map((sym, nth) => {
      const colour = lineColour(nth);
      const dash = DASHES[Math.floor(nth / LINE_COLOURS.length) % DASHES.length];
      return {
        type: "line",
        name: sym,
        data: rolling!.series[sym].map((p) => p[metric] ?? null),
        connectNulls: false,
        showSymbol: dates.length <= 30,
        symbolSize: 5,
        lineStyle: { width: 2, color: colour, type: dash },
        itemStyle: { color: colour },
      };
    });
  // Drawn after the lines, so each line keeps its series index (the tooltip's colour), and under them (z).
  const bands = symbols
    .filter((sym) => rolling?.series[sym] && rolling.bands?.[sym])
    .flatMap((sym) => bandSeries(model, sym, metric, symbols));
  return {
    animation: false,
    grid: { left: 8, right: 16, top: legendHeight(symbols, width) + 28, bottom: 4, containLabel: true },
    legend: {
      data: series.map((x) => x.name),
      top: 0,
      left: 0,
      right: 0,
      itemGap: narrow ? 6 : 10,
      textStyle: { color: "#2b3340", fontSize: narrow ? 10 : 12 },
    },
    tooltip: {
      trigger: "axis",
      className: "gs-tooltip",
      confine: true,
      formatter: (params: { seriesName: string; seriesIndex: number; dataIndex: number; value: number | null }[]) => {
        const shown = params.filter((p) => p.seriesIndex < series.length);
        if (!shown.length) return "";
        const rows = shown.map((p) => ({
          symbol: p.seriesName,
          line: p.seriesIndex,
          community: bySymbol.get(p.seriesName)?.community ?? null,
          value: p.value,
          band: bandAt(model, p.seriesName, metric, p.dataIndex),
        }));
        return seriesTooltip(dates[shown[0].dataIndex] ?? "", metric, rows);
      },
    },
    xAxis: {
      type: "category",
      data: dates,
      boundaryGap: false,
      axisLabel: { color: "#5b6472", hideOverlap: true, formatter: (v: string) => v.slice(5) },
      axisLine: { lineStyle: { color: "#c9ced6" } },
    },
    yAxis: {
      type: "value",
      name: metricLabel(metric),
      nameTextStyle: { color: "#5b6472", align: "left" },
      scale: true,
      axisLabel: { color: "#5b6472" },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: [...series, ...bands],
  };
}

/** The band's opacity over its line's colour: light enough for overlapping bands and the lines to read through. */
export const BAND_OPACITY = 0.15;

/** A stock's 5th and 95th percentile at one as-of, or null without a band. */
function bandAt(model: NetworkModel, symbol: string, metric: string, i: number): [number | null, number | null] | null {
  const b = model.rolling?.bands?.[symbol]?.[i];
  return b ? [b.p05[metric] ?? null, b.p95[metric] ?? null] : null;
}

/**
 * The p05–p95 band of one stock as two stacked lines: the 5th percentile, invisible, and the
 * width up to the 95th, filled. Both carry the stock's name, so its legend entry hides the band too.
 */
function bandSeries(model: NetworkModel, symbol: string, metric: string, symbols: string[]) {
  const nth = symbols.filter((sym) => model.rolling?.series[sym]).indexOf(symbol);
  const points = model.rolling!.bands![symbol];
  const lo = points.map((b) => b.p05[metric] ?? null);
  const hi = points.map((b) => b.p95[metric] ?? null);
  const common = { type: "line", name: symbol, stack: `band ${symbol}`, symbol: "none", silent: true, connectNulls: false, z: 1 };
  return [
    { ...common, id: `band-lo ${symbol}`, data: lo.map((v, i) => (v === null || hi[i] === null ? null : v)), lineStyle: { opacity: 0 } },
    {
      ...common,
      id: `band-hi ${symbol}`,
      data: hi.map((v, i) => (v === null || lo[i] === null ? null : Math.max(0, v - lo[i]!))),
      lineStyle: { opacity: 0 },
      areaStyle: { color: lineColour(nth), opacity: BAND_OPACITY },
    },
  ];
}
