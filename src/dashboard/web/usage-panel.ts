/// <reference lib="dom" />
/** The Usage section: today's count, the minute window, and the last 30 days as a bar chart. */
import type { UsageView } from "../view-model.ts";
import { byId } from "./dom.ts";
import { type Chart, makeChart } from "./echarts-setup.ts";
import { usageFiguresHtml, usageTableHtml } from "./fragments.ts";
import { escapeHtml } from "./html.ts";

let chart: Chart | null = null;
let refreshTimer: number | undefined;
/** The usage last drawn: an unchanged answer is not redrawn, so the live region stays quiet. */
let drawn = "";

/** ECharts option of the 30-day bar chart; today's bar in the accent colour. */
export function usageChartOption(usage: UsageView) {
  const last = usage.days.length - 1;
  return {
    animation: false,
    grid: { left: 8, right: 8, top: 16, bottom: 4, containLabel: true },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      formatter: (params: { name: string; value: number }[]) => {
        const p = params[0];
        return `<div class="tt-title">${escapeHtml(p.name)}</div><div>${p.value} request${p.value === 1 ? "" : "s"} admitted</div>`;
      },
    },
    xAxis: {
      type: "category",
      data: usage.days.map((d) => d.date),
      axisTick: { alignWithLabel: true },
      axisLabel: { formatter: (v: string) => v.slice(5), hideOverlap: true, color: "#5b6472" },
      axisLine: { lineStyle: { color: "#c9ced6" } },
    },
    yAxis: {
      type: "value",
      minInterval: 1,
      max: (v: { max: number }) => Math.max(v.max, 1),
      axisLabel: { color: "#5b6472" },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: [
      {
        type: "bar",
        name: "Requests",
        barMaxWidth: 18,
        data: usage.days.map((d, i) => ({
          value: d.admitted,
          itemStyle: { color: i === last ? "#2f5bd3" : "#93a8e6", borderRadius: [3, 3, 0, 0] },
        })),
      },
    ],
  };
}

/** Renders the figures and the chart; re-fetches the state once a full minute window frees up. */
export function renderUsage(usage: UsageView, refresh: () => void): void {
  const figures = byId("usage-figures");
  const table = byId("usage-table");
  const el = byId("usage-chart");
  const key = JSON.stringify(usage);
  if (figures && key !== drawn) figures.innerHTML = usageFiguresHtml(usage);
  if (table && key !== drawn) table.innerHTML = usageTableHtml(usage);
  if (el && (key !== drawn || !chart)) {
    chart ??= makeChart(el);
    chart.setOption(usageChartOption(usage), true);
  }
  drawn = key;
  window.clearTimeout(refreshTimer);
  if (usage.minute.used >= usage.minute.limit) {
    const wait = usage.minute.resetAt * 1000 - Date.now() + 1000;
    if (wait > 0 && wait < 3_600_000) refreshTimer = window.setTimeout(refresh, wait);
  }
}
