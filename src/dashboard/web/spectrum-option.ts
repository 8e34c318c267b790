/**
 * The ECharts option of the eigenvalue spectrum (spectrum=true): the correlation matrix's
 * eigenvalues as bars, largest first, those above the Marchenko–Pastur edge λ₊ in colour and the
 * rest (what noise alone would give) in grey, with λ₊ drawn across as a line. A line series draws
 * λ₊, so ECharts' markLine component stays out of the bundle.
 */
import { isoDate } from "./format.ts";
import type { Spectrum } from "./signal-data.ts";

export const SIGNAL_COLOUR = "#0072b2";
export const NOISE_COLOUR = "#b8bec8";
export const EDGE_COLOUR = "#d55e00";
const AXIS = "#5b6472";

const fixed = (v: number | null, digits = 3) => (v === null ? "—" : v.toFixed(digits));

/** How many of the top eigenvalues the absorption ratio sums: ⌈n/5⌉ (Kritzman et al. 2011). */
export const absorbedCount = (n: number) => Math.ceil(n / 5);

/** "3 of 50 eigenvalues above λ₊ = 3.659 …": the panel's caption. */
export function spectrumCaption(s: Spectrum, asof: string): string {
  const n = s.eigenvalues.length;
  return [
    `As of ${isoDate(asof)}`,
    `${s.n_above} of ${n} eigenvalues above λ₊ = ${fixed(s.lambda_plus)}, the Marchenko–Pastur edge (below it, what noise alone would give)`,
    `absorption ratio ${fixed(s.absorption_ratio)} (the top ${absorbedCount(n)} eigenvalues' share of the total)`,
  ].join(" · ");
}

/** The chart's text alternative: every bar's value, the line and the count. */
export function spectrumLabel(s: Spectrum): string {
  const values = s.eigenvalues.map((v) => fixed(v, 2)).join(", ");
  return `Bar chart of the ${s.eigenvalues.length} eigenvalues of the correlation matrix, largest first: ${values}. The line is λ₊ = ${fixed(s.lambda_plus)}; ${s.n_above} above it.`;
}

export function spectrumOption(s: Spectrum, width: number) {
  const narrow = width < 480;
  const ranks = s.eigenvalues.map((_, i) => String(i + 1));
  const bars = s.eigenvalues.map((v) => ({
    value: v,
    itemStyle: { color: v !== null && v > s.lambda_plus ? SIGNAL_COLOUR : NOISE_COLOUR },
  }));
  const edgeName = `λ₊ = ${fixed(s.lambda_plus)}`;
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 36, bottom: 4, containLabel: true },
    legend: {
      top: 0,
      left: 0,
      data: [
        { name: "Eigenvalue", itemStyle: { color: SIGNAL_COLOUR } },
        { name: edgeName, itemStyle: { color: EDGE_COLOUR } },
      ],
      textStyle: { color: "#2b3340", fontSize: narrow ? 10 : 12 },
    },
    tooltip: {
      trigger: "axis",
      className: "gs-tooltip",
      confine: true,
      formatter: (params: { dataIndex: number }[]) => {
        const i = params[0]?.dataIndex ?? 0;
        const v = s.eigenvalues[i] ?? null;
        const side = v !== null && v > s.lambda_plus ? "above" : "at or below";
        return `<div class="tt-title">λ${i + 1} = ${fixed(v)}</div><div class="tt-sub">${side} λ₊ = ${fixed(s.lambda_plus)}</div>`;
      },
    },
    xAxis: {
      type: "category",
      data: ranks,
      axisLabel: { color: AXIS, hideOverlap: true },
      axisTick: { show: false },
      axisLine: { lineStyle: { color: "#c9ced6" } },
    },
    yAxis: {
      type: "value",
      axisLabel: { color: AXIS },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: [
      { type: "bar", name: "Eigenvalue", data: bars, barCategoryGap: "20%" },
      {
        type: "line",
        name: edgeName,
        data: ranks.map(() => s.lambda_plus),
        symbol: "none",
        silent: true,
        lineStyle: { color: EDGE_COLOUR, width: 2, type: "dashed" },
        itemStyle: { color: EDGE_COLOUR },
        z: 3,
      },
    ],
  };
}
