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
/** `,"reliability":0.123456` on an edge row. */
const RELIABILITY_TEXT_BYTES = 24;
const TIDY_ROW_BYTES = 60;

/** A bar row as the database driver hands it over: a three-number array (object, elements, slot). */
const ROW_BYTES = 80;

export function requestBytes(params: ChartParams, n: number, asofs: number, bars: number, format: Format = "json", rowsPerBar = 1): number {
  const E = maxEdges(params, n);
  const m = params.metrics.length;
  // The bar rows read (each a small array), the closes and the returns panel; the correlation matrix, sliding sums and scratch (n² each).
  const series = ROW_BYTES * n * bars * rowsPerBar + 2 * 8 * n * bars + 4 * 8 * n * n + optionBytes(params, n) + filterBytes(params, n);
  // The graph being built and the one kept (every as-of's with include_graph=all), and each as-of's values.
  const graphs = (2 + (params.include_graph === "all" ? asofs : 0)) * EDGE_BYTES * E + asofs * n * (8 * m + 16);
  // Each as-of's clusters and weights, and the merges kept (the latest, or every as-of's with include_graph=all).
  const tree = params.hierarchy === "none" ? 0 : (params.include_graph === "all" ? asofs : 1) * n;
  const extras = (params.clusters !== null ? 1 : 0) + (params.weights !== "none" ? 1 : 0);
  const kept = asofs * n * 8 * extras + tree * 4 * 8 + signalKeptBytes(params, n, asofs);
  const { objects, json, tidy } = payloadBytes(params, n, asofs, format);
  // The text (the JSON, and the tidy rows asked for) exists twice at the end: the thread's string and the copy the event loop receives.
  return Math.ceil(JOB_BYTES + series + graphs + kept + bootstrapBytes(params, n) + objects + 2 * (json + tidy));
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
  // With bootstrap, each metric's 5th and 95th percentiles beside it.
  const perMetric = params.bootstrap !== null ? 3 : 1;
  const values = perMetric * params.metrics.length + (params.clusters !== null ? 1 : 0) + (params.weights !== "none" ? 1 : 0);
  // The signal-or-noise graph members, per graph returned (graph_summary alone without include_graph): the
  // eigenvalues and three summary numbers; the n×n matrix; a reliability per edge.
  const graphsOut = params.include_graph === "all" ? asofs : 1;
  const cells = (params.spectrum ? graphsOut * (n + 3) : 0) + (params.include_corr && params.include_graph ? graphsOut * n * n : 0);
  const reliabilities = params.bootstrap !== null ? edgesOut : 0;
  const objects =
    points * (POINT_BYTES + VALUE_BYTES * values) +
    edgesOut * EDGE_OUT_BYTES +
    tree * MERGE_OUT_BYTES +
    (cells + reliabilities) * VALUE_BYTES;
  const json =
    points * values * VALUE_TEXT_BYTES +
    edgesOut * EDGE_TEXT_BYTES +
    tree * MERGE_TEXT_BYTES +
    cells * VALUE_TEXT_BYTES +
    reliabilities * RELIABILITY_TEXT_BYTES;
  return { objects, json, tidy: format === "json" ? 0 : (points * values + cells + reliabilities) * TIDY_ROW_BYTES };
}

/**
 * Per-as-of scratch of denoise, detone and spectrum (random-matrix.ts, top-eigen.ts): the
 * tridiagonalisation's reflectors, the leading eigenvectors, the rebuilt matrix and its
 * unit-diagonal copy (n² doubles each), twice with both denoise and detone.
 */
function filterBytes(params: ChartParams, n: number): number {
  const denoise = params.denoise !== "none";
  const decompositions = (params.spectrum || denoise || params.detone > 0 ? 1 : 0) + (denoise && params.detone > 0 ? 1 : 0);
  return decompositions * 4 * 8 * n * n;
}

/**
 * What signal or noise keeps per as-of until the answer is written: the eigenvalues (every as-of's), the
 * matrix (the latest and the one being built, or every as-of's with include_graph=all), the edges'
 * reliabilities (likewise) and each node's two percentiles per metric (every as-of's).
 */
function signalKeptBytes(params: ChartParams, n: number, asofs: number): number {
  const matrices = params.include_graph === "all" ? asofs : Math.min(asofs, 2);
  let bytes = params.spectrum ? asofs * 8 * n : 0;
  if (params.include_corr) bytes += matrices * 8 * n * n;
  if (params.bootstrap !== null) bytes += matrices * 8 * maxEdges(params, n) + asofs * 2 * 8 * n * params.metrics.length;
  return bytes;
}

/**
 * bootstrap=B's scratch at the as-of being computed (bootstrap.ts; one as-of at a time): every
 * replicate's metric values (B·n per metric, read back for the percentiles), the resampled window
 * and the edge index, and one replicate's pipeline at a time — its correlation and filters, its
 * graph and metrics. A replicate's graph is dropped once its edges are counted, so B graphs are
 * never held together.
 */
function bootstrapBytes(params: ChartParams, n: number): number {
  const B = params.bootstrap;
  if (B === null) return 0;
  const L = params.lookback;
  const m = params.metrics.length;
  const samples = 8 * B * n * m;
  const window = 8 * n * L + 4 * L + 4 * n * n;
  const replicate = 2 * 8 * n * n + optionBytes(params, n) + filterBytes(params, n) + EDGE_BYTES * maxEdges(params, n) + n * (8 * m + 16);
  return samples + window + replicate;
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
