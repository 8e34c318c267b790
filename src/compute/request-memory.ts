/**
 * What a chart computation holds in memory at its peak, estimated like its cost (request-cost.ts)
 * from the parameters, symbol, as-of and bar counts, so the bound on admitted work
 * (admitted-work.ts) can count bytes before anything is loaded. The per-item sizes are
 * JavaScriptCore's (8-byte numbers, ~72 bytes per graph edge across its CSR arrays, one byte per
 * character of ASCII text); the 16-user run in docs/benchmarks.md checks the sum against RSS.
 */
import type { ChartParams } from "../engine/types.ts";
import { DCOR_HELD_BYTES, maxEdges } from "./request-cost.ts";
import type { Format } from "./serialise.ts";

/** The thread's fixed share per job (generator state, small arrays, the reply message). */
const JOB_BYTES = 1 << 20;
const EDGE_BYTES = 72;
/** A point of the payload's object tree (object header, date reference, community) plus 16 bytes per metric value. */
const POINT_BYTES = 48;
const VALUE_BYTES = 16;
/** An edge row of the object tree, and of its JSON. */
const EDGE_OUT_BYTES = 160;
const EDGE_TEXT_BYTES = 90;
/** A merge row [left, right, height, size] of the object tree, and of its JSON (a leaf name beside it). */
const MERGE_OUT_BYTES = 120;
const MERGE_TEXT_BYTES = 50;
/** Characters per metric value in JSON, and per tidy row. */
const VALUE_TEXT_BYTES = 14;
const TIDY_ROW_BYTES = 60;

/** A bar row as the database driver hands it over: a three-number array (object, elements, slot). */
const ROW_BYTES = 80;

export function requestBytes(params: ChartParams, n: number, asofs: number, bars: number, format: Format = "json", rowsPerBar = 1): number {
  const E = maxEdges(params, n);
  const m = params.metrics.length;
  // The bar rows read (each a small array), the closes and the returns panel; the correlation matrix, sliding sums and scratch (n² each).
  const series = ROW_BYTES * n * bars * rowsPerBar + 2 * 8 * n * bars + 4 * 8 * n * n + optionBytes(params, n);
  // The graph being built and the one kept (every as-of's with include_graph=all), and each as-of's values.
  const graphs = (2 + (params.include_graph === "all" ? asofs : 0)) * EDGE_BYTES * E + asofs * n * (8 * m + 16);
  // Each as-of's clusters and weights, and the merges kept (the latest, or every as-of's with include_graph=all).
  const tree = params.hierarchy === "none" ? 0 : (params.include_graph === "all" ? asofs : 1) * n;
  const extras = (params.clusters !== null ? 1 : 0) + (params.weights !== "none" ? 1 : 0);
  const kept = asofs * n * 8 * extras + tree * 4 * 8;
  const { objects, json, tidy } = payloadBytes(params, n, asofs, format);
  // The text (the JSON, and the tidy rows asked for) exists twice at the end: the thread's string and the copy the event loop receives.
  return Math.ceil(JOB_BYTES + series + graphs + kept + objects + 2 * (json + tidy));
}

/** A render job (compute-threads.ts): the result's JSON, the object tree parsed from it, and the tidy text twice. */
export function renderBytes(params: ChartParams, n: number, asofs: number, format: Format = "csv"): number {
  const { objects, json, tidy } = payloadBytes(params, n, asofs, format);
  return Math.ceil(JOB_BYTES + json + objects + 2 * tidy);
}

/** The answer's object tree, its JSON, and its tidy rows (none for json). */
function payloadBytes(params: ChartParams, n: number, asofs: number, format: Format): { objects: number; json: number; tidy: number } {
  const E = maxEdges(params, n);
  const points = asofs * n;
  const edgesOut = params.include_graph === "all" ? asofs * E : params.include_graph ? E : 0;
  const tree = params.hierarchy === "none" ? 0 : (params.include_graph === "all" ? asofs : 1) * n;
  const values = params.metrics.length + (params.clusters !== null ? 1 : 0) + (params.weights !== "none" ? 1 : 0);
  const objects = points * (POINT_BYTES + VALUE_BYTES * values) + edgesOut * EDGE_OUT_BYTES + tree * MERGE_OUT_BYTES;
  const json = points * values * VALUE_TEXT_BYTES + edgesOut * EDGE_TEXT_BYTES + tree * MERGE_TEXT_BYTES;
  return { objects, json, tidy: format === "json" ? 0 : points * values * TIDY_ROW_BYTES };
}

/**
 * Per-as-of scratch of issue 26's options: Kendall's orders and ranks (two int32 per value), the
 * distance-correlation vectors (L(L+1)/2 doubles per series, at most DCOR_HELD_BYTES, twice where
 * the WebAssembly kernel copies them), PMFG's candidate order (an int32 per pair and a double per
 * entry), the hierarchy's distance matrix and working copy, HRP's covariance and centred window.
 */
function optionBytes(params: ChartParams, n: number): number {
  const L = params.lookback;
  let bytes = 0;
  if (params.corr_method === "kendall") bytes += 8 * n * L;
  if (params.corr_method === "distance") bytes += 2 * Math.min(8 * n * ((L * (L + 1)) / 2), DCOR_HELD_BYTES);
  if (params.graph_method === "pmfg") bytes += 2 * n * n + 8 * n * n;
  if (params.hierarchy !== "none") bytes += 2 * 8 * n * n;
  if (params.weights === "hrp") bytes += 8 * n * n + 8 * n * L;
  return bytes;
}
