/// <reference lib="dom" />
/**
 * The Network section: the demo (or the user's own query) as a force-directed graph beside a
 * rolling chart of one metric for chosen stocks, a stock picker, and a table of the figures.
 */
import { type ApiResult, callApi } from "./api.ts";
import { announce, byId, finePointer, reducedMotion, textWidth } from "./dom.ts";
import { dendrogramCaption, dendrogramHeight, dendrogramOption } from "./dendrogram-option.ts";
import { type Chart, makeChart } from "./echarts-setup.ts";
import { isoDate, metricLabel, metricValue } from "./format.ts";
import { type ColourBy, colourGroups, colourLabel, sectorAgreementText } from "./colour-groups.ts";
import { byReliability, graphOption } from "./graph-option.ts";
import { escapeHtml as e } from "./html.ts";
import { type ChartData, mergeDemo, type NetworkModel, type RollingData, type SnapshotData, toModel, topSymbols } from "./network-data.ts";
import { communityName } from "./palette.ts";
import { initQueryForm } from "./query-form.ts";
import { rollingOption } from "./rolling-option.ts";
import { drawSpectrum, initSpectrum } from "./spectrum-panel.ts";
import { swatch } from "./tooltips.ts";
import { weightsCaption, weightsLabel, weightsOption, weightsTableHtml } from "./weights-option.ts";

const TOP_N = 5;
const METHOD_NAMES: Record<string, string> = {
  mst: "minimum spanning tree",
  knn: "k nearest neighbours",
  threshold: "threshold on |ρ|",
  complete: "complete graph",
};

interface PanelState {
  model: NetworkModel | null;
  source: string;
  selected: string[];
  /** The user picked stocks themselves: a metric change no longer resets them to the top 5. */
  picked: boolean;
}

const state: PanelState = { model: null, source: "", selected: [], picked: false };
/** Counts the answers asked for: one that comes back after a later one was asked for is not drawn. */
let loads = 0;
let graph: Chart | null = null;
let rolling: Chart | null = null;
let dendrogram: Chart | null = null;
let weights: Chart | null = null;
const sizeBy = () => byId<HTMLSelectElement>("size-by")?.value ?? "degree_strength";
const colourBy = (): ColourBy => (byId<HTMLSelectElement>("colour-by")?.value === "sector" ? "sector" : "community");
const rollingMetric = () => byId<HTMLSelectElement>("rolling-metric")?.value ?? "degree_strength";

/** Wires the controls and loads the demo; `onMetered` runs after each of the user's own queries. */
export function initNetwork(onMetered: () => void): void {
  const graphEl = byId("graph-chart");
  const rollingEl = byId("rolling-chart");
  if (!graphEl || !rollingEl) return;
  // Both options are laid out for the chart's size: a phone turned sideways gets a new one.
  graph = makeChart(graphEl, drawGraph);
  rolling = makeChart(rollingEl, drawRollingChart);
  const dendrogramEl = byId("dendrogram-chart");
  const weightsEl = byId("weights-chart");
  if (dendrogramEl) dendrogram = makeChart(dendrogramEl, drawDendrogramChart);
  if (weightsEl) weights = makeChart(weightsEl, drawWeightsChart);
  initSpectrum();
  graph.on("click", (p: { dataType?: string; name?: string }) => {
    if (p.dataType === "node" && p.name) toggle(p.name);
  });
  byId("size-by")?.addEventListener("change", drawGraph);
  byId("colour-by")?.addEventListener("change", drawGraph);
  byId("rolling-metric")?.addEventListener("change", () => {
    if (!state.picked && state.model) state.selected = topSymbols(state.model, rollingMetric(), TOP_N);
    drawRolling();
  });
  byId("pick-top")?.addEventListener("click", () => {
    if (!state.model) return;
    state.selected = topSymbols(state.model, rollingMetric(), TOP_N);
    state.picked = false;
    drawRolling();
  });
  byId("pick-none")?.addEventListener("click", () => {
    state.selected = [];
    state.picked = true;
    drawRolling();
  });
  byId("stock-options")?.addEventListener("change", (ev) => {
    const box = ev.target as HTMLInputElement;
    if (box.type === "checkbox") toggle(box.value);
  });
  const showDemo = byId<HTMLButtonElement>("show-demo");
  showDemo?.addEventListener("click", () => {
    showDemo.hidden = true;
    void loadDemo();
  });
  initQueryForm(async (params) => {
    const mine = ++loads;
    setSource("Running your query…");
    const res = await callApi<ChartData>("POST", "/dashboard/api/query", { params });
    onMetered();
    if (mine !== loads) return res.ok;
    if (!res.ok) {
      setSource(state.source);
      announce(byId("network-error"), res.message);
      return false;
    }
    const summary = Object.entries(params)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    show(toModel(res.data), summary ? `Your query: ${summary}` : "Your query");
    if (showDemo) showDemo.hidden = false;
    return true;
  });
  void loadDemo();
}

async function loadDemo(): Promise<void> {
  const mine = ++loads;
  setSource("Loading the demo…");
  const [snap, roll]: [ApiResult<SnapshotData>, ApiResult<RollingData>] = await Promise.all([
    callApi<SnapshotData>("GET", "/v1/demo/chart"),
    callApi<RollingData>("GET", "/v1/demo/chart?periods=10"),
  ]);
  // A query run while the demo loaded (a quick first click) would otherwise be drawn over by the demo.
  if (mine !== loads) return;
  if (!snap.ok) {
    setSource("");
    announce(byId("network-error"), `The demo could not be loaded: ${snap.message}`);
    return;
  }
  show(mergeDemo(snap.data, roll.ok ? roll.data : null), "Demo snapshot of the sample universe");
}

function show(model: NetworkModel, source: string): void {
  announce(byId("network-error"), "");
  state.model = model;
  state.source = source;
  state.selected = topSymbols(model, rollingMetric(), TOP_N);
  state.picked = false;
  setSource(source);
  drawGraph();
  drawRolling();
  drawHierarchy();
  drawWeights();
  drawSpectrum(model);
  drawTable();
}

/** Shows or hides an optional panel; a chart that was hidden has no size until it is shown again. */
function showPanel(id: string, on: boolean, chart: Chart | null): void {
  const panel = byId(id);
  if (!panel) return;
  const was = !panel.hidden;
  panel.hidden = !on;
  if (on && !was) chart?.resize();
  if (!on) chart?.clear();
}

function drawHierarchy(): void {
  const h = state.model?.hierarchy;
  const on = !!h && h.merges.length > 0;
  showPanel("dendrogram-panel", on, dendrogram);
  const caption = byId("dendrogram-caption");
  if (caption) caption.textContent = on && h ? dendrogramCaption(h) : "";
  drawDendrogramChart();
}

function drawDendrogramChart(): void {
  const h = state.model?.hierarchy;
  if (!h?.merges.length || !dendrogram) return;
  // A row per leaf: the chart's box grows with the tree (set through the CSSOM, which the CSP allows).
  const el = dendrogram.getDom();
  const height = `${dendrogramHeight(h.leaf_order.length)}px`;
  if (el.style.height !== height) {
    el.style.height = height;
    dendrogram.resize();
  }
  dendrogram.setOption(dendrogramOption(h), true);
}

function drawWeights(): void {
  const m = state.model;
  const on = !!m?.weights;
  showPanel("weights-panel", on, weights);
  const caption = byId("weights-caption");
  if (caption) caption.textContent = on && m ? weightsCaption(m) : "";
  const table = byId("weights-table");
  if (table) table.innerHTML = on && m ? weightsTableHtml(m) : "";
  byId("weights-chart")?.setAttribute("aria-label", on && m ? weightsLabel(m) : "");
  drawWeightsChart();
}

function drawWeightsChart(): void {
  const m = state.model;
  if (!m?.weights || !weights) return;
  weights.setOption(weightsOption(m), true);
}

function setSource(text: string): void {
  const el = byId("network-source");
  if (el) el.textContent = text;
}

function toggle(symbol: string): void {
  const i = state.selected.indexOf(symbol);
  if (i >= 0) state.selected.splice(i, 1);
  else state.selected.push(symbol);
  state.picked = true;
  drawRolling();
}

function drawGraph(): void {
  const m = state.model;
  if (!m || !graph) return;
  graph.setOption(
    graphOption(m, sizeBy(), {
      roam: finePointer(),
      animate: !reducedMotion(),
      width: graph.getWidth(),
      height: graph.getHeight(),
      textWidth,
      colourBy: colourBy(),
    }),
    true,
  );
  const inGraph = new Set(Object.keys(m.graph.communities ?? {}));
  const drawn = inGraph.size ? m.stocks.filter((s) => inGraph.has(s.symbol)) : m.stocks;
  const reliable = byReliability(m)
    ? " Edge opacity is each edge's bootstrap reliability: the share of resamples whose graph holds it."
    : "";
  byId("graph-chart")?.setAttribute("aria-label", colourLabel(colourGroups(drawn, colourBy()), colourBy()) + reliable);
  const agreement = byId("sector-agreement");
  if (agreement) {
    const text = sectorAgreementText(m.graph);
    agreement.textContent = text ?? "";
    agreement.hidden = text === null;
  }
  const g = m.graph;
  const parts = [
    `As of ${isoDate(m.asof)}`,
    `${g.nodes} stocks, ${g.edges} edges (${METHOD_NAMES[g.method] ?? g.method})`,
    g.n_communities !== undefined ? `${g.n_communities} communities` : "",
    typeof g.modularity === "number" ? `modularity ${g.modularity.toFixed(3)}` : "",
    typeof g.community_stability === "number" ? `community stability ${g.community_stability.toFixed(3)}` : "",
    byReliability(m) ? "edge opacity: reliability (share of resamples holding the edge)" : "",
    `node size: ${metricLabel(sizeBy())}`,
  ];
  const caption = byId("graph-caption");
  if (caption) caption.textContent = parts.filter(Boolean).join(" · ");
}

function drawRolling(): void {
  const m = state.model;
  if (!m || !rolling) return;
  const note = byId("rolling-note");
  drawPicker();
  if (!m.rolling) {
    rolling.clear();
    if (note) note.textContent = "This answer is a single snapshot: ask for 2 or more periods to see the metrics over time.";
    return;
  }
  if (note) {
    note.textContent = state.selected.length
      ? `${metricLabel(rollingMetric())} at ${m.rolling.dates.length} as-of dates${m.rolling.bands ? ", each in its bootstrap band from the 5th to the 95th percentile" : ""}. Tap a node or tick a stock to add it.`
      : "No stocks chosen: tick some below, or tap nodes in the graph.";
  }
  drawRollingChart();
}

function drawRollingChart(): void {
  const m = state.model;
  if (!m?.rolling || !rolling) return;
  rolling.setOption(rollingOption(m, rollingMetric(), state.selected, rolling.getWidth()), true);
}

function drawPicker(): void {
  const box = byId("stock-options");
  const m = state.model;
  if (!box || !m) return;
  const chosen = new Set(state.selected);
  const ordered = [...m.stocks].sort((a, b) => (a.community ?? 1e9) - (b.community ?? 1e9));
  box.innerHTML = ordered
    .map(
      (s) =>
        `<label class="chip"><input type="checkbox" value="${e(s.symbol)}"${chosen.has(s.symbol) ? " checked" : ""}>${swatch(s.community)}${e(s.symbol)}</label>`,
    )
    .join("");
}

function drawTable(): void {
  const table = byId("network-table");
  const m = state.model;
  if (!table || !m) return;
  const head = m.metrics.map((x) => `<th scope="col">${e(metricLabel(x))}</th>`).join("");
  const sectors = m.stocks.some((s) => s.sector);
  const rows = m.stocks
    .map(
      (s) =>
        `<tr><th scope="row">${swatch(s.community)}${e(s.symbol)}</th><td>${e(communityName(s.community))}</td>${sectors ? `<td>${e(s.sector ?? "—")}</td>` : ""}${m.metrics
          .map((x) => `<td>${metricValue(s.values[x])}</td>`)
          .join("")}</tr>`,
    )
    .join("");
  table.innerHTML = `<caption>Metrics of each stock as of ${e(isoDate(m.asof))}</caption><thead><tr><th scope="col">Stock</th><th scope="col">Community</th>${sectors ? `<th scope="col">Sector</th>` : ""}${head}</tr></thead><tbody>${rows}</tbody>`;
}
