/// <reference lib="dom" />
/**
 * ECharts with only what the dashboard draws (bar, line and graph charts, tooltip, legend,
 * grid, the canvas renderer): the full build is about three times larger. The network places its
 * own labels (label-layout.ts), so ECharts' label-overlap layout is not included.
 */
import { BarChart, GraphChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";

echarts.use([BarChart, GraphChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type Chart = echarts.ECharts;

/**
 * A chart in `el`, resized with its container (the layout changes between phone and desktop).
 * `redraw` runs after each resize, for charts whose option depends on their size.
 */
export function makeChart(el: HTMLElement, redraw?: () => void): Chart {
  const chart = echarts.init(el, undefined, { renderer: "canvas" });
  new ResizeObserver(() => {
    chart.resize();
    redraw?.();
  }).observe(el);
  return chart;
}

export { echarts };
