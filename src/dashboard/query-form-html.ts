/**
 * The "Your own query" form, one row per field: the API's parameter name, its label, and its
 * bounds or allowed values taken from the API's own (src/http/params/params-fields.ts,
 * src/engine/types.ts), so the form cannot offer what the server refuses. The browser checks
 * the bounds rendered here (web/query-form.ts) and the rules between fields (web/query-rules.ts).
 */
import { CORR_METHODS, DENOISES, GRAPH_METHODS, HIERARCHIES, MARKET_MODES, SHRINKAGES, WEIGHTS } from "../engine/types.ts";
import { BOOTSTRAP, CLUSTERS, DETONE, KNN_K, LOOKBACK, MAX_POINTS, PERIODS, SEED, SYMBOL_COUNT } from "../http/params/params-fields.ts";
import { SYMBOL_PATTERN, UNIVERSE_PATTERN } from "../market/symbols.ts";
import { escapeHtml as e } from "./web/html.ts";

type Field =
  | { kind: "text"; pattern?: RegExp; placeholder: string; wide?: boolean; data?: Record<string, string> }
  | { kind: "number"; bounds: { min: number; max: number }; value?: number; placeholder?: string }
  | { kind: "date" }
  | { kind: "select"; options: [value: string, label: string][] };

export interface FormField {
  /** The API's parameter name (docs/api.md § GET /v1/graph-stats/chart). */
  name: string;
  label: string;
  /** Shown under the field, and read with it. */
  hint?: string;
  /** What the field says when its value is out of bounds. */
  error?: string;
  /**
   * The field applies only when another has this value (`knn_k` with `graph_method=knn`), or any
   * value when `value` is not given (`seed` with `bootstrap`): disabled, and not sent, otherwise.
   */
  enabledWith?: { name: string; value?: string };
  field: Field;
}

/** Labels of the API's names; "" is "not sent" (the API's default applies). */
const NAMES: Record<string, string> = {
  mst: "Minimum spanning tree",
  knn: "k nearest neighbours",
  threshold: "Threshold on |ρ|",
  complete: "Complete graph",
  tmfg: "TMFG (triangulated)",
  pmfg: "PMFG (planar)",
  pearson: "Pearson",
  spearman: "Spearman (ranks)",
  ewma: "EWMA (half-life 20)",
  kendall: "Kendall τ-b",
  distance: "Distance correlation",
  none: "None",
  ledoit_wolf: "Ledoit–Wolf",
  keep: "Keep the market",
  remove: "Remove the market",
  single: "Single linkage",
  average: "Average linkage",
  ward: "Ward linkage",
  hrp: "Hierarchical risk parity",
  equal: "Equal",
  inverse_variance: "Inverse variance",
  mp: "Marchenko–Pastur",
};

const options = (values: readonly string[], names: Record<string, string> = {}): [string, string][] =>
  values.map((v) => [v, names[v] ?? NAMES[v] ?? v]);
/** hierarchy=none beside weights=hrp is refused, so "None" sends nothing: the API's default (none, or single for HRP) applies. */
const orNone = (values: readonly string[], names: Record<string, string> = {}): [string, string][] => [
  ["", "None"],
  ...options(
    values.filter((v) => v !== "none"),
    names,
  ),
];
const wholeNumber = (label: string, b: { min: number; max: number }) => `${label}: a whole number from ${b.min} to ${b.max}.`;

/** The form's fields in three groups, in the order shown. */
export const QUERY_GROUPS: { legend: string; fields: FormField[] }[] = [
  {
    legend: "Data",
    fields: [
      {
        name: "universe",
        label: "Universe",
        error: "Universe: 1 to 64 letters, digits, dots, dashes or underscores.",
        field: { kind: "text", pattern: UNIVERSE_PATTERN, placeholder: "sample" },
      },
      {
        name: "symbols",
        label: "Symbols",
        field: {
          kind: "text",
          placeholder: "comma separated; replaces the universe",
          wide: true,
          data: {
            "min-count": String(SYMBOL_COUNT.min),
            "max-count": String(SYMBOL_COUNT.max),
            "entry-pattern": SYMBOL_PATTERN.source,
          },
        },
      },
      {
        name: "lookback",
        label: "Lookback (bars)",
        error: wholeNumber("Lookback", LOOKBACK),
        field: { kind: "number", bounds: LOOKBACK, value: 60 },
      },
      { name: "periods", label: "Periods", error: wholeNumber("Periods", PERIODS), field: { kind: "number", bounds: PERIODS, value: 10 } },
      {
        name: "asof",
        label: "As of",
        hint: "Empty: the latest bar.",
        error: "As of: a calendar date.",
        field: { kind: "date" },
      },
    ],
  },
  {
    legend: "Network",
    fields: [
      { name: "graph_method", label: "Graph method", field: { kind: "select", options: options(GRAPH_METHODS) } },
      {
        name: "knn_k",
        label: "Neighbours k",
        hint: "For k nearest neighbours.",
        error: wholeNumber("Neighbours k", KNN_K),
        enabledWith: { name: "graph_method", value: "knn" },
        field: { kind: "number", bounds: KNN_K, value: 4 },
      },
      { name: "corr_method", label: "Correlation", field: { kind: "select", options: options(CORR_METHODS) } },
      {
        name: "shrinkage",
        label: "Shrinkage",
        hint: "Ledoit–Wolf needs Pearson.",
        field: { kind: "select", options: options(SHRINKAGES) },
      },
      { name: "market_mode", label: "Market factor", field: { kind: "select", options: options(MARKET_MODES) } },
    ],
  },
  {
    legend: "Hierarchy and weights",
    fields: [
      {
        name: "hierarchy",
        label: "Hierarchy",
        field: { kind: "select", options: orNone(HIERARCHIES, { complete: "Complete linkage" }) },
      },
      {
        name: "clusters",
        label: "Clusters",
        hint: "With a hierarchy or HRP.",
        error: wholeNumber("Clusters", CLUSTERS),
        field: { kind: "number", bounds: CLUSTERS, placeholder: "none" },
      },
      { name: "weights", label: "Weights", field: { kind: "select", options: orNone(WEIGHTS) } },
    ],
  },
  {
    legend: "Signal or noise",
    fields: [
      {
        name: "denoise",
        label: "Denoise",
        hint: "Eigenvalues under λ₊ averaged.",
        field: { kind: "select", options: options(DENOISES) },
      },
      {
        name: "detone",
        label: "Detone",
        hint: "Leading components removed.",
        error: wholeNumber("Detone", DETONE),
        field: { kind: "number", bounds: DETONE, placeholder: "0" },
      },
      {
        name: "spectrum",
        label: "Spectrum",
        field: {
          kind: "select",
          options: [
            ["", "Off"],
            ["true", "Eigenvalues against λ₊"],
          ],
        },
      },
      {
        name: "include_graph",
        label: "Graphs of",
        hint: "Every as-of: a spectrum for each.",
        field: {
          kind: "select",
          options: [
            ["", "The latest as-of"],
            ["all", "Every as-of"],
          ],
        },
      },
      {
        name: "bootstrap",
        label: "Bootstrap B",
        hint: "Resamples: reliability and bands.",
        error: wholeNumber("Bootstrap B", BOOTSTRAP),
        field: { kind: "number", bounds: BOOTSTRAP, placeholder: "none" },
      },
      {
        name: "seed",
        label: "Seed",
        hint: "With bootstrap.",
        error: wholeNumber("Seed", SEED),
        enabledWith: { name: "bootstrap" },
        field: { kind: "number", bounds: SEED, placeholder: "0" },
      },
    ],
  },
];

function control(id: string, f: FormField, describedBy: string): string {
  const rule = f.enabledWith && (f.enabledWith.value === undefined ? f.enabledWith.name : `${f.enabledWith.name}=${f.enabledWith.value}`);
  const enabled = rule ? ` data-enabled-with="${e(rule)}" disabled` : "";
  const common = `id="${id}" name="${e(f.name)}"${describedBy ? ` aria-describedby="${describedBy}"` : ""}${enabled}`;
  const data = (d: Record<string, string> = {}) =>
    Object.entries({ ...d, ...(f.error ? { error: f.error } : {}) })
      .map(([k, v]) => ` data-${k}="${e(v)}"`)
      .join("");
  const c = f.field;
  switch (c.kind) {
    case "text": {
      // The pattern attribute is matched whole, in the `v` mode: `-` is escaped there.
      const pattern = c.pattern ? ` pattern="${e(c.pattern.source.replace(/^\^|\$$/g, "").replace(/(?<!\\)-(?=\])/g, "\\-"))}"` : "";
      return `<input ${common} type="text" placeholder="${e(c.placeholder)}" autocomplete="off" spellcheck="false"${pattern}${data(c.data)}>`;
    }
    case "number": {
      const value = c.value !== undefined ? ` value="${c.value}"` : "";
      const placeholder = c.placeholder ? ` placeholder="${e(c.placeholder)}"` : "";
      return `<input ${common} type="number" min="${c.bounds.min}" max="${c.bounds.max}" step="1"${value}${placeholder} inputmode="numeric"${data()}>`;
    }
    case "date":
      // The API reads YYYY-MM-DD and refuses years before 100 (as JavaScript's Date.UTC maps 0-99 to 1900-1999).
      return `<input ${common} type="date" min="0100-01-01" max="9999-12-31"${data()}>`;
    case "select":
      return `<select ${common}>${c.options.map(([v, l], i) => `<option value="${e(v)}"${i === 0 ? " selected" : ""}>${e(l)}</option>`).join("")}</select>`;
  }
}

function fieldHtml(f: FormField): string {
  const id = `q-${f.name.replace(/_/g, "-")}`;
  const hint = f.hint ? `<p class="field-hint" id="${id}-hint">${e(f.hint)}</p>` : "";
  const wide = f.field.kind === "text" && f.field.wide ? " field-wide" : "";
  return `<div class="field${wide}"><label for="${id}">${e(f.label)}</label>${control(id, f, f.hint ? `${id}-hint` : "")}${hint}<p class="field-error" id="${id}-error" hidden></p></div>`;
}

/** The form as the signed-in page carries it (no inline script or style: the CSP forbids both). */
export function queryFormHtml(): string {
  const groups = QUERY_GROUPS.map(
    (g) =>
      `<fieldset class="field-group"><legend>${e(g.legend)}</legend><div class="fields">${g.fields.map(fieldHtml).join("")}</div></fieldset>`,
  ).join("\n");
  return `<form id="query-form" class="query-form" novalidate data-max-points="${MAX_POINTS}">
<h3>Your own query</h3>
<p class="hint">Runs on the live endpoint as you: it is metered like any API call.</p>
${groups}
<p id="query-error" class="message error" role="alert"></p>
<div class="form-actions">
<button type="submit" id="run-query" class="button primary">Run my query (uses 1 of your requests)</button>
<button type="button" id="show-demo" class="button secondary" hidden>Back to the demo</button>
</div>
</form>`;
}
