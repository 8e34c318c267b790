import { describe, expect, test } from "bun:test";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { loadGolden, runGoldenCase, type GoldenCase } from "../../test/support/engine/pipeline.ts";
import { METRICS } from "./types.ts";

function checkCase(c: GoldenCase): void {
  const got = runGoldenCase(c, loadNifty);
  const ex = c.expected;
  expect(got.asofDate).toBe(ex.asof_date);
  expect(got.nodes).toEqual(ex.nodes);
  expect(got.droppedBars).toEqual(ex.dropped_insufficient_bars);
  expect(got.droppedVar).toEqual(ex.dropped_zero_variance);

  const g = got.graph;
  const edges = Array.from(g.src, (s, e) => [got.nodes[s], got.nodes[g.dst[e]], g.w[e], g.corr[e]] as const);
  expect(edges.map((e) => `${e[0]}|${e[1]}`).sort()).toEqual(ex.edges.map((e) => `${e[0]}|${e[1]}`).sort());
  const byKey = new Map(ex.edges.map((e) => [`${e[0]}|${e[1]}`, e]));
  for (const [a, b, w, corr] of edges) {
    const want = byKey.get(`${a}|${b}`)!;
    expect(Math.abs(w - want[2])).toBeLessThan(1e-9);
    expect(Math.abs(corr - want[3])).toBeLessThan(1e-9);
  }

  expect(got.metrics.notConverged).toEqual([]);
  for (const metric of METRICS) {
    const values = got.metrics.values[metric]!;
    got.nodes.forEach((sym, i) => {
      const want = ex.metrics[metric][sym];
      if (want === null) {
        expect({ metric, sym, v: values[i] }).toEqual({ metric, sym, v: NaN });
      } else {
        const diff = Math.abs(values[i] - want);
        if (!(diff < 1e-6)) throw new Error(`${metric} ${sym}: got ${values[i]}, networkx ${want}`);
      }
    });
  }

  const q = got.communities.modularity;
  if (ex.modularity_networkx === null) expect(q).toBeNaN();
  else expect(q).toBeGreaterThanOrEqual(ex.modularity_networkx - 0.01);
}

for (const file of ["small-golden.json", "nifty-golden.json"] as const) {
  (file === "nifty-golden.json" ? describeNifty : describe)(`golden fixtures ${file} (networkx 2.8.8)`, () => {
    for (const c of loadGolden(file)) test(c.id, () => checkCase(c));
  });
}
