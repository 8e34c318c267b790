/**
 * The ECharts option of the rolling chart: one line per chosen stock, each in its own colour
 * (stocks of one community would otherwise look alike); the tooltip names each one's community.
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
  return {
    animation: false,
    grid: { left: 8, right: 16, top: legendHeight(symbols, width) + 28, bottom: 4, containLabel: true },
    legend: { top: 0, left: 0, right: 0, itemGap: narrow ? 6 : 10, textStyle: { color: "#2b3340", fontSize: narrow ? 10 : 12 } },
    tooltip: {
      trigger: "axis",
      className: "gs-tooltip",
      confine: true,
      formatter: (params: { seriesName: string; seriesIndex: number; dataIndex: number; value: number | null }[]) => {
        if (!params.length) return "";
        const rows = params.map((p) => ({
          symbol: p.seriesName,
          line: p.seriesIndex,
          community: bySymbol.get(p.seriesName)?.community ?? null,
          value: p.value,
        }));
        return seriesTooltip(dates[params[0].dataIndex] ?? "", metric, rows);
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
    series,
  };
}
