/**
 * Per-node centrality metrics of README.md § How the numbers are computed, step 6, on a CSR Graph.
 * Every kernel is hand-written on typed arrays: graphology's closeness ignores edge weights, and
 * building a graphology object for every as-of of a rolling request would cost more than the
 * metrics themselves.
 */
import type { Graph } from "../graph.ts";
import type { Metric } from "../types.ts";
import { degreeStrength } from "./degree-strength.ts";
import { eigenvectorCentrality } from "./eigenvector.ts";
import { pagerank } from "./pagerank.ts";
import { shortestPathMetrics } from "./shortest-paths.ts";

/** Unrounded values per node; NaN where undefined. A metric listed in notConverged has all-NaN values. */
export interface MetricsResult {
  values: Partial<Record<Metric, Float64Array>>;
  notConverged: Metric[];
}

/** Computes the requested metrics (each once, in the order asked) for every node of g. */
export function computeMetrics(g: Graph, metrics: readonly Metric[]): MetricsResult {
  const values: Partial<Record<Metric, Float64Array>> = {};
  const notConverged: Metric[] = [];
  const nan = () => new Float64Array(g.n).fill(NaN);
  const wantB = metrics.includes("betweenness_centrality");
  const wantC = metrics.includes("closeness_centrality");
  const paths = wantB || wantC ? shortestPathMetrics(g, wantB, wantC) : null;
  for (const metric of metrics) {
    if (metric in values) continue;
    switch (metric) {
      case "degree_strength":
        values[metric] = degreeStrength(g);
        break;
      case "eigenvector_centrality": {
        const x = eigenvectorCentrality(g);
        // No edges: undefined, not a convergence failure.
        if (x === null && g.src.length > 0) notConverged.push(metric);
        values[metric] = x ?? nan();
        break;
      }
      case "pagerank": {
        const x = pagerank(g);
        if (x === null) notConverged.push(metric);
        values[metric] = x ?? nan();
        break;
      }
      case "betweenness_centrality":
        values[metric] = paths!.betweenness!;
        break;
      case "closeness_centrality":
        values[metric] = paths!.closeness!;
        break;
    }
  }
  return { values, notConverged };
}
