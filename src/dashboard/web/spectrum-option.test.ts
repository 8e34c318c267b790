import { describe, expect, test } from "bun:test";
import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import type { Spectrum } from "./signal-data.ts";
import { EDGE_COLOUR, NOISE_COLOUR, SIGNAL_COLOUR, spectrumCaption, spectrumLabel, spectrumOption } from "./spectrum-option.ts";

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** Twelve eigenvalues summing to n = 12, three above λ₊ (as the API orders them: descending). */
const SPECTRUM: Spectrum = {
  eigenvalues: [4.2, 2.1, 1.6, 0.9, 0.7, 0.6, 0.5, 0.4, 0.35, 0.3, 0.2, 0.15],
  lambda_plus: 1.5,
  n_above: 3,
  absorption_ratio: 0.658333,
};

/** The chart as ECharts draws it (server-side, SVG). */
function svg(s: Spectrum): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 600, height: 300 });
  try {
    chart.setOption(spectrumOption(s, 600));
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe("the spectrum chart", () => {
  test("a bar per eigenvalue in the answer's order, those above λ₊ in colour and the rest grey", () => {
    const bars = spectrumOption(SPECTRUM, 600).series[0];
    expect(bars.data.map((b) => b.value)).toEqual(SPECTRUM.eigenvalues);
    const colours = bars.data.map((b) => b.itemStyle.color);
    expect(colours.filter((c) => c === SIGNAL_COLOUR).length).toBe(SPECTRUM.n_above);
    expect(colours.slice(0, 3)).toEqual([SIGNAL_COLOUR, SIGNAL_COLOUR, SIGNAL_COLOUR]);
    expect(new Set(colours.slice(3))).toEqual(new Set([NOISE_COLOUR]));
  });

  test("λ₊ is one level line across every bar, and ECharts draws it over the bars", () => {
    const line = spectrumOption(SPECTRUM, 600).series[1];
    expect(line.data).toEqual(SPECTRUM.eigenvalues.map(() => 1.5));
    expect(line.name).toBe("λ₊ = 1.500");
    const drawn = svg(SPECTRUM);
    // Three coloured bars and nine grey ones (the legend's icons add one of each colour drawn).
    expect(count(drawn, `fill="${SIGNAL_COLOUR}"`)).toBe(3 + 1);
    expect(count(drawn, `fill="${NOISE_COLOUR}"`)).toBe(9);
    expect(count(drawn, `stroke="${EDGE_COLOUR}"`)).toBeGreaterThanOrEqual(1);
  });

  test("the caption counts the eigenvalues above λ₊ and names the absorption ratio's top ⌈n/5⌉", () => {
    expect(spectrumCaption(SPECTRUM, "2025-09-30T00:00:00+05:30")).toBe(
      "As of 2025-09-30 · 3 of 12 eigenvalues above λ₊ = 1.500, the Marchenko–Pastur edge (below it, what noise alone would give) · absorption ratio 0.658 (the top 3 eigenvalues' share of the total)",
    );
    expect(spectrumLabel(SPECTRUM)).toStartWith(
      "Bar chart of the 12 eigenvalues of the correlation matrix, largest first: 4.20, 2.10, 1.60, 0.90,",
    );
    expect(spectrumLabel(SPECTRUM)).toEndWith("The line is λ₊ = 1.500; 3 above it.");
  });

  test("the tooltip says on which side of λ₊ an eigenvalue is", () => {
    const tip = spectrumOption(SPECTRUM, 600).tooltip.formatter;
    expect(tip([{ dataIndex: 0 }])).toContain('λ1 = 4.200</div><div class="tt-sub">above λ₊');
    expect(tip([{ dataIndex: 5 }])).toContain('λ6 = 0.600</div><div class="tt-sub">at or below λ₊');
  });
});
