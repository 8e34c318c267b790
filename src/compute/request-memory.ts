/**
 * What a chart computation holds in memory at its peak, estimated like its cost (request-cost.ts)
 * from the parameters, symbol, as-of and bar counts, so the bound on admitted work
 * (admitted-work.ts) can count bytes before anything is loaded. The per-item sizes are
 * JavaScriptCore's (8-byte numbers, ~72 bytes per graph edge across its CSR arrays, one byte per
 * character of ASCII text); the 16-user run in docs/benchmarks.md checks the sum against RSS.
 */
import type { ChartParams } from "../engine/types.ts";
import { maxEdges } from "./request-cost.ts";

/** The thread's fixed share per job (generator state, small arrays, the reply message). */
const JOB_BYTES = 1 << 20;
const EDGE_BYTES = 72;
/** A point of the payload's object tree (object header, date reference, community) plus 16 bytes per metric value. */
const POINT_BYTES = 48;
const VALUE_BYTES = 16;
/** An edge row of the object tree, and of its JSON. */
const EDGE_OUT_BYTES = 160;
const EDGE_TEXT_BYTES = 90;
/** Characters per metric value in JSON, and per tidy row. */
const VALUE_TEXT_BYTES = 14;
const TIDY_ROW_BYTES = 60;

export function requestBytes(params: ChartParams, n: number, asofs: number, bars: number): number {
  const E = maxEdges(params, n);
  const m = params.metrics.length;
  const points = asofs * n;
  const edgesOut = params.include_graph === "all" ? asofs * E : params.include_graph ? E : 0;
  // The closes and the returns panel; the correlation matrix, sliding sums and scratch (n² each).
  const series = 2 * 8 * n * bars + 4 * 8 * n * n;
  // The graph being built and the one kept (every as-of's with include_graph=all), and each as-of's values.
  const graphs = (2 + (params.include_graph === "all" ? asofs : 0)) * EDGE_BYTES * E + asofs * n * (8 * m + 16);
  const tree = points * (POINT_BYTES + VALUE_BYTES * m) + edgesOut * EDGE_OUT_BYTES;
  const text = params.format === "json" ? points * m * VALUE_TEXT_BYTES + edgesOut * EDGE_TEXT_BYTES : points * m * TIDY_ROW_BYTES;
  // The text exists twice at the end: the thread's string and the copy the event loop receives.
  return Math.ceil(JOB_BYTES + series + graphs + tree + 2 * text);
}
