/// <reference lib="dom" />
/**
 * The Spectrum panel, shown when the answer carries spectra (spectrum=true): the chosen as-of's
 * eigenvalues against λ₊. A rolling answer with include_graph=all has one per as-of, chosen under
 * "Eigenvalues on" (the latest at first); otherwise there is one, the (latest) graph's.
 */
import { byId } from "./dom.ts";
import { type Chart, makeChart } from "./echarts-setup.ts";
import { isoDate } from "./format.ts";
import { escapeHtml as e } from "./html.ts";
import type { NetworkModel } from "./network-data.ts";
import { spectrumCaption, spectrumLabel, spectrumOption } from "./spectrum-option.ts";

let chart: Chart | null = null;
let spectra: NonNullable<NetworkModel["spectra"]> = [];

/** The spectrum of the as-of chosen in the select (the latest when none is). */
function chosen() {
  const pick = byId<HTMLSelectElement>("spectrum-asof")?.value;
  return spectra.find((s) => s.asof === pick) ?? spectra.at(-1) ?? null;
}

function drawChart(): void {
  const s = chosen();
  if (!s || !chart) return;
  chart.setOption(spectrumOption(s.spectrum, chart.getWidth()), true);
  byId("spectrum-chart")?.setAttribute("aria-label", spectrumLabel(s.spectrum));
  const caption = byId("spectrum-caption");
  if (caption) caption.textContent = spectrumCaption(s.spectrum, s.asof);
}

export function initSpectrum(): void {
  const el = byId("spectrum-chart");
  if (el) chart = makeChart(el, drawChart);
  byId("spectrum-asof")?.addEventListener("change", drawChart);
}

/** Shows the panel for `model`'s spectra (hidden when it has none), the latest as-of chosen. */
export function drawSpectrum(model: NetworkModel): void {
  spectra = model.spectra ?? [];
  const panel = byId("spectrum-panel");
  if (!panel) return;
  const was = !panel.hidden;
  panel.hidden = spectra.length === 0;
  if (!spectra.length) {
    chart?.clear();
    return;
  }
  if (!was) chart?.resize();
  const select = byId<HTMLSelectElement>("spectrum-asof");
  if (select) {
    select.innerHTML = spectra
      .map((s, i) => `<option value="${e(s.asof)}"${i === spectra.length - 1 ? " selected" : ""}>${e(isoDate(s.asof))}</option>`)
      .join("");
    select.disabled = spectra.length === 1;
  }
  drawChart();
}
