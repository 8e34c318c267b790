import type { Graph } from "../graph.ts";

/** Weighted degree Σw divided by the largest weighted degree (top node 1); all 0 without edges. */
export function degreeStrength(g: Graph): Float64Array {
  const out = new Float64Array(g.n);
  let max = 0;
  for (let v = 0; v < g.n; v++) {
    let s = 0;
    for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) s += g.nbrW[p];
    out[v] = s;
    if (s > max) max = s;
  }
  if (max > 0) for (let v = 0; v < g.n; v++) out[v] /= max;
  else out.fill(0);
  return out;
}
