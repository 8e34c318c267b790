/**
 * The cost model against measurement (docs/api.md § Request cost, issue #20): on a fixed grid of
 * shapes covering every graph method with its knobs, every correlation method, shrinkage, market
 * mode, include_graph, metric sets and formats, and issue 26's pmfg, kendall, distance correlation,
 * hierarchy, clusters and weights, the compute CPU time measured here is within 3× of the estimate
 * either way. Threshold graphs are priced at their worst case (every pair kept), so
 * there the estimate is only an upper bound: checked one-sided at a high threshold, two-sided at 0
 * (4× under, as their relaxations are priced for the densest);
 * PMFG at its (every candidate pair tested for planarity): checked one-sided, on factor data and on
 * pure noise, where most pairs reach a test.
 */
import { describe, expect, test } from "bun:test";
import { factorInput } from "../../test/support/engine/random-returns.ts";
import { cpuMsOnce, measureCpuMs } from "../../test/support/engine/cpu-time.ts";
import { parseChartParams } from "../http/params/params.ts";
import { inlineCompute } from "./compute-pool.ts";
import { MAX_DISTANCE_BYTES } from "../engine/distance-correlation.ts";
import { costTerms, DCOR_HELD_BYTES, renderCost, requestCost, SORTED_FRONTIER_MAX } from "./request-cost.ts";
import { SORTED_FRONTIER_MAX as ENGINE_SORTED_FRONTIER_MAX } from "../engine/metrics/shortest-paths.ts";
import { renderBytes, requestBytes } from "./request-memory.ts";
import { renderTidy, type Format } from "./serialise.ts";

const parsed = (q: string) => {
  const p = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!p.ok) throw new Error(p.errors.join("; "));
  return p;
};
const params = (q: string) => parsed(q).params;
/** The query's format, as the route passes it: csv/ndjson rows are rendered with the computation. */
const format = (q: string): Format => parsed(q).format;
const tidy = (q: string) => {
  const f = format(q);
  return f === "json" ? undefined : f;
};

/**
 * [symbols, query]: 56 shapes of 5–500 ms estimated. Six rolling shapes had twice the as-ofs; halved,
 * their measured/estimated moved by 0.2 at most (warm), mst with include_graph by 0.56, at half the time.
 */
export const GRID: [number, string][] = [
  [60, "graph_method=complete"],
  [150, "graph_method=complete"],
  [100, "graph_method=complete&include_graph=true"],
  [60, "graph_method=complete&periods=20&include_graph=all&metrics=degree_strength"],
  [120, "graph_method=complete&periods=15&step=5&metrics=pagerank,degree_strength"],
  [80, "graph_method=complete&corr_method=spearman&periods=10"],
  [80, "graph_method=complete&corr_method=ewma&halflife=30&periods=10"],
  [100, "graph_method=complete&shrinkage=ledoit_wolf&periods=5"],
  [100, "graph_method=complete&market_mode=remove&periods=5"],
  [60, "graph_method=complete&periods=100&format=csv"],
  [60, "graph_method=threshold&corr_threshold=0&periods=10"],
  [100, "graph_method=threshold&corr_threshold=0&include_graph=true"],
  [200, "graph_method=mst"],
  [200, "graph_method=mst&periods=25&include_graph=true"],
  [150, "graph_method=mst&periods=100&step=1&lookback=60"],
  [100, "graph_method=mst&corr_method=spearman&periods=30"],
  [120, "graph_method=mst&periods=30&include_graph=all&format=ndjson"],
  [150, "graph_method=mst&market_mode=remove&periods=20"],
  [150, "graph_method=knn&knn_k=5&periods=20"],
  [150, "graph_method=knn&knn_k=25&periods=10"],
  [100, "graph_method=knn&knn_k=50&periods=10&include_graph=true"],
  [200, "graph_method=knn&knn_k=10&periods=50&include_graph=false&metrics=degree_strength,pagerank"],
  [80, "graph_method=knn&knn_k=10&periods=30&include_graph=all"],
  [120, "graph_method=knn&knn_k=15&corr_method=ewma&halflife=20&periods=20"],
  [120, "graph_method=knn&knn_k=15&shrinkage=ledoit_wolf&periods=10"],
  [100, "graph_method=knn&knn_k=20&periods=100&format=csv&metrics=betweenness_centrality"],
  [150, "graph_method=tmfg"],
  [150, "graph_method=tmfg&periods=20&include_graph=true"],
  [100, "graph_method=tmfg&corr_method=spearman&periods=20"],
  [100, "graph_method=tmfg&periods=30&include_graph=all&metrics=closeness_centrality"],
  [200, "graph_method=tmfg&periods=10&market_mode=remove&metrics=eigenvector_centrality,pagerank"],
  [150, "graph_method=tmfg&periods=50&step=1&lookback=120&format=ndjson"],
  [250, "graph_method=complete&metrics=degree_strength"],
  [250, "graph_method=knn&knn_k=10&metrics=betweenness_centrality,closeness_centrality"],
  [300, "graph_method=mst&periods=10"],
  [40, "graph_method=complete&periods=125&step=1&lookback=60"],
  [40, "graph_method=knn&knn_k=5&periods=125&step=1&include_graph=true"],
  [50, "graph_method=tmfg&periods=200&step=2&corr_method=spearman"],
  [60, "graph_method=mst&periods=200&step=1&lookback=250&metrics=eigenvector_centrality"],
  [200, "graph_method=complete&periods=3&lookback=252&corr_method=spearman"],
  [150, "graph_method=knn&knn_k=30&periods=5&lookback=252&corr_method=ewma"],
  [100, "graph_method=complete&periods=10&lookback=20&include_graph=true&format=csv"],
  [180, "graph_method=threshold&corr_threshold=0&metrics=pagerank"],
  [80, "graph_method=mst&periods=100&step=5&lookback=100&include_graph=true&format=csv"],
  // Issue 26: kendall, distance correlation (BLAS path, and past its held-bytes bound the blocked one), hierarchy, weights.
  [100, "graph_method=mst&corr_method=kendall&periods=5"],
  [60, "graph_method=knn&knn_k=5&corr_method=kendall&periods=10&lookback=250"],
  [150, "graph_method=tmfg&corr_method=kendall&market_mode=remove&periods=3"],
  [100, "graph_method=mst&corr_method=distance&periods=10&lookback=120"],
  [50, "graph_method=knn&knn_k=5&corr_method=distance&periods=5&lookback=250&include_graph=true"],
  // Past the bound with few symbols (the bound is on n·L², the blocked Gram's work is n²·L²): ~300 ms
  // estimated, 84% of it the blocked Gram, where 300 symbols at lookback 250 were ~1.3 s (96%); the
  // measured/estimated ratios of the two agreed within 0.2 here.
  [60, "graph_method=mst&corr_method=distance&lookback=560"],
  [200, "graph_method=mst&hierarchy=average&clusters=8&periods=10"],
  [300, "graph_method=knn&knn_k=5&hierarchy=ward&hierarchy_distance=signed&periods=5&include_graph=all"],
  [150, "graph_method=mst&weights=hrp&periods=30&lookback=120&format=csv"],
  [300, "graph_method=mst&weights=hrp&hierarchy=complete&clusters=20&lookback=250&periods=3"],
  [200, "graph_method=mst&weights=inverse_variance&periods=25&metrics=pagerank"],
  [100, "graph_method=tmfg&weights=equal&periods=25&include_graph=true"],
];

type Row = { n: number; q: string; noise?: boolean; ms: number; est: number };

/**
 * The compute CPU time and the estimate: the least of three runs under 200 ms, of two above. Single
 * runs of 50-200 ms shapes put the grid's speed at 1.17-1.57 alone on a busy host where the least of
 * three gave 1.02-1.08, and it failed one of five runs alone and one of three whole runs (a shape 3.3x
 * over, another at a third of its estimate); the least of three costs ~2 s more CPU.
 */
function measured(n: number, q: string, noise = false): Row {
  const p = params(q);
  const input = factorInput(n, p.lookback + 1 + (p.periods - 1) * p.step, 11, noise);
  const run = () => inlineCompute(input, p, tidy(q));
  let ms = measureCpuMs(run);
  // A first run over 200 ms may be a cold one (a distance shape in a whole run: 301 ms, then 44 ms warm).
  if (ms >= 200) ms = Math.min(ms, cpuMsOnce(run));
  return { n, q, noise, ms, est: requestCost(p, n, undefined, format(q)) };
}

/** `r` measured `times` more, its least time kept: a row one run puts out of bounds, and the median row (`speedOf`). */
function again(r: Row, times: number): void {
  for (let i = 0; i < times; i++) r.ms = Math.min(r.ms, measured(r.n, r.q, r.noise).ms);
}

/**
 * This machine's speed against the reference machine: the median measured/estimated, over least
 * times. The median row is measured twice more, its least time kept, until the median is a row so
 * measured. Taken over single runs the speed came out 10-25% higher, which narrows the bound under
 * the estimate for the fastest shapes (a whole run failed so at a speed of 2.23: a 14 ms shape at
 * 0.74 of its estimate).
 */
function speedOf(rows: Row[]): number {
  const measuredAgain = new Set<Row>();
  for (;;) {
    const sorted = [...rows].sort((a, b) => a.ms / a.est - b.ms / b.est);
    const mid = sorted[Math.floor(sorted.length / 2)]!;
    if (measuredAgain.has(mid)) return mid.ms / mid.est;
    again(mid, 2);
    measuredAgain.add(mid);
  }
}

/** Set by the grid's test; a test run alone takes the median over the grid's first 16 shapes. */
let gridSpeed: number | null = null;
const machineSpeed = (): number => gridSpeed ?? speedOf(GRID.slice(0, 16).map(([n, q]) => measured(n, q)));

describe("the cost model", () => {
  test("measured compute CPU time is within 3× of the estimate either way, on 56 shapes, at this machine's speed", () => {
    inlineCompute(factorInput(60, 200), params("graph_method=knn&periods=3&include_graph=true")); // warm the JIT
    const rows = GRID.map(([n, q]) => measured(n, q));
    // This machine's speed against the reference machine the model was fitted on: the median
    // ratio. A shared host that runs 1.5x slower today moves every ratio alike, which says nothing
    // about the model; a missing or wrong term moves some shapes against the others, which the 3x
    // bound around the scaled estimate catches. The speed itself stays within 3x of the reference.
    const speed = speedOf(rows);
    gridSpeed = speed;
    console.log(`this machine runs the grid at ${speed.toFixed(2)}x the reference machine's time (median measured/estimated)`);
    expect(speed).toBeGreaterThan(1 / 3);
    expect(speed).toBeLessThan(3);
    // A shared host only ever slows a run down: a shape found slow is measured twice more and its
    // least time kept, so one unlucky run (another job on the core) is not taken for the model's error.
    for (const r of rows) if (r.ms / (r.est * speed) > 3) again(r, 2);
    // Dense threshold graphs' relaxations are priced at three times their fit, for the 400-symbol
    // one below: that puts these 60-180-symbol ones at 0.33-0.58 of the median alone, and one crossed
    // 1/3 in a whole run. They are held at 4x under; a term 4x off still fails.
    const under = (r: Row) => (r.q.includes("graph_method=threshold") ? 4 : 3);
    const off = rows.filter((r) => r.ms / (r.est * speed) > 3 || (r.est * speed) / r.ms > under(r));
    if (off.length) console.log(off.map((r) => `${(r.ms / r.est).toFixed(2)} ${r.ms.toFixed(1)}/${r.est} n=${r.n} ${r.q}`).join("\n"));
    expect(GRID.length).toBeGreaterThanOrEqual(56);
    expect(off).toEqual([]);
  }, 120_000);

  test("threshold graphs are priced at their worst case: never under-estimated at any threshold", () => {
    for (const t of ["0", "0.3", "0.6"]) {
      const r = measured(120, `graph_method=threshold&corr_threshold=${t}&periods=5`);
      if (r.ms / r.est >= 3) again(r, 2);
      expect(r.ms / r.est).toBeLessThan(3);
    }
    // A dense graph's shortest paths are mostly edge relaxations (n·E): unpriced, this shape ran ~3.5x over.
    // Priced, it measures 0.85-1.5x here, the spread being mostly the grid's median speed on a shared
    // machine (it failed at 1.50004 under a bound of 1.5); unpriced (paths_edges 0) 1.8-2.6x in four runs.
    const speed = machineSpeed();
    const dense = () =>
      measured(400, "graph_method=threshold&corr_threshold=0.3&corr_method=distance&lookback=20&metrics=betweenness_centrality");
    let { ms, est } = dense();
    // Measured again while over, as the grid's shapes are: a busy machine only ever slows a run.
    for (let retry = 0; retry < 3 && ms > 1.75 * est * speed; retry++) ms = Math.min(ms, dense().ms);
    expect(ms / (est * speed)).toBeLessThan(1.75);
    // The estimate does not depend on the threshold: every threshold is priced as if every pair passed.
    expect(costTerms(params("graph_method=threshold&corr_threshold=0.6"), 100)).toEqual(
      costTerms(params("graph_method=threshold&corr_threshold=0"), 100),
    );
  }, 60_000);

  test("PMFG is priced at its worst case: never under-estimated, on factor data or on pure noise", () => {
    // Noise sends most candidate pairs to a full planarity test (63-70% here); a strong factor, a few dozen.
    const shapes: [number, string, boolean][] = [
      [100, "graph_method=pmfg", false],
      [200, "graph_method=pmfg&metrics=degree_strength,pagerank", false],
      [40, "graph_method=pmfg&periods=30&corr_method=spearman", false],
      [60, "graph_method=pmfg&periods=10&include_graph=true", true],
      [150, "graph_method=pmfg&metrics=degree_strength&lookback=120", true],
      [250, "graph_method=pmfg&metrics=degree_strength&lookback=60&market_mode=remove", true],
    ];
    const speed = machineSpeed();
    const rows = shapes.map(([n, q, noise]) => measured(n, q, noise));
    for (const r of rows) if (r.ms > r.est * speed) again(r, 2);
    const under = rows.filter((r) => r.ms > r.est * speed);
    if (under.length) console.log(under.map((r) => `${(r.ms / r.est).toFixed(2)} ${r.ms.toFixed(1)}/${r.est} n=${r.n} ${r.q}`).join("\n"));
    expect(under).toEqual([]);
  }, 180_000);

  test("each knob moves the estimate the way it moves the work", () => {
    const base = params("graph_method=knn&knn_k=5&periods=20");
    const cost = (q: string) => requestCost(params(q), 150, undefined, format(q));
    expect(cost("graph_method=knn&knn_k=50&periods=20")).toBeGreaterThan(cost("graph_method=knn&knn_k=5&periods=20"));
    expect(requestCost(base, 150)).toBeGreaterThan(cost("graph_method=knn&knn_k=5&periods=20&include_graph=false"));
    expect(cost("graph_method=knn&knn_k=5&periods=20&include_graph=all")).toBeGreaterThanOrEqual(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=20&format=csv")).toBeGreaterThan(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=20&corr_method=spearman")).toBeGreaterThan(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=40")).toBeGreaterThan(requestCost(base, 150));
    expect(requestCost(base, 300)).toBeGreaterThan(requestCost(base, 150));
    // Issue 26's options each add work, and are priced so.
    for (const extra of ["corr_method=kendall", "corr_method=distance", "hierarchy=average", "weights=hrp", "clusters=5&hierarchy=ward"]) {
      expect(cost(`graph_method=knn&knn_k=5&periods=20&${extra}`)).toBeGreaterThan(requestCost(base, 150));
    }
    expect(cost("graph_method=pmfg&periods=20")).toBeGreaterThan(cost("graph_method=tmfg&periods=20"));
    expect(cost("graph_method=knn&knn_k=5&periods=20&corr_method=kendall")).toBeGreaterThan(
      cost("graph_method=knn&knn_k=5&periods=20&corr_method=spearman"),
    );
    expect(cost("graph_method=knn&knn_k=5&periods=20&weights=hrp")).toBeGreaterThan(
      cost("graph_method=knn&knn_k=5&periods=20&weights=equal"),
    );
  });

  test("another format of a result already computed is priced at its render job: within 3× of its time, far below computing", () => {
    for (const [n, q] of [
      [60, "graph_method=complete&periods=100"],
      [150, "graph_method=mst&weights=hrp&periods=30&lookback=120"],
      [200, "graph_method=mst&periods=60&include_graph=false&metrics=pagerank,degree_strength"],
    ] as const) {
      const p = params(q);
      const input = factorInput(n, p.lookback + 1 + (p.periods - 1) * p.step);
      // This machine's speed on the whole computation, as in the grid above: the least of two runs, the first making the answer.
      let json!: ReturnType<typeof inlineCompute>["body"];
      let whole = Math.min(
        cpuMsOnce(() => {
          json = inlineCompute(input, p).body;
        }),
        cpuMsOnce(() => inlineCompute(input, p)),
      );
      const full = requestCost(p, n);
      for (const f of ["csv", "ndjson"] as const) {
        renderTidy(json, f); // warm the JIT
        let ms = measureCpuMs(() => renderTidy(json, f));
        const est = renderCost(p, n, undefined, f);
        const ratio = () => ms / (est * (whole / full));
        // A stray collection in either term moves the ratio either way (once 4.9x, in a busy whole run):
        // both are measured again while it is out of bounds, keeping the least, as the grid does.
        for (let i = 0; i < 2 && (ratio() > 3 || ratio() < 1 / 3); i++) {
          whole = Math.min(
            whole,
            cpuMsOnce(() => inlineCompute(input, p)),
          );
          ms = Math.min(
            ms,
            cpuMsOnce(() => renderTidy(json, f)),
          );
        }
        expect(est).toBeLessThan(requestCost(p, n, undefined, f) / 4);
        expect(ratio()).toBeLessThan(3);
        expect(1 / ratio()).toBeLessThan(3);
        expect(renderBytes(p, n, p.periods, f)).toBeLessThan(requestBytes(p, n, p.periods, p.lookback + p.periods, f));
      }
    }
  }, 60_000);

  test("the paths term is scaled where the engine's Dijkstra frontier changes form", () => {
    expect(SORTED_FRONTIER_MAX).toBe(ENGINE_SORTED_FRONTIER_MAX);
    const paths = (n: number) => costTerms(params("graph_method=knn"), n).paths / (n * n * Math.log2(n + 1));
    expect(paths(SORTED_FRONTIER_MAX + 1)).toBeLessThan(paths(SORTED_FRONTIER_MAX));
  });

  test("distance correlation is priced on the path the engine takes: past its bound on held vectors, the blocked scalar one", () => {
    expect(DCOR_HELD_BYTES).toBe(MAX_DISTANCE_BYTES);
    const terms = (n: number, L: number) => costTerms(params(`corr_method=distance&lookback=${L}`), n);
    expect(terms(250, 250).corr_dcor_gram).toBeGreaterThan(0);
    expect(terms(250, 250).corr_dcor_blocked).toBe(0);
    expect(terms(300, 250).corr_dcor_blocked).toBeGreaterThan(0);
    expect(terms(300, 250).corr_dcor_gram).toBe(0);
    // The grid measures both paths.
    for (const path of ["corr_dcor_gram", "corr_dcor_blocked"] as const) {
      expect(GRID.some(([n, q]) => costTerms(params(q), n)[path] > 0)).toBe(true);
    }
  });
});

test("the memory estimate counts issue 26's scratch and what it adds to the answer", () => {
  const bytes = (q: string) => requestBytes(params(q), 300, 20, 400);
  const base = bytes("periods=20&lookback=250");
  for (const extra of [
    "corr_method=kendall",
    "corr_method=distance",
    "graph_method=pmfg",
    "hierarchy=ward",
    "weights=hrp",
    "weights=equal",
  ]) {
    expect(bytes(`periods=20&lookback=250&${extra}`)).toBeGreaterThan(base);
  }
  // Distance correlation holds at most DCOR_HELD_BYTES of vectors (twice, with the WebAssembly kernel's copy).
  expect(bytes("periods=20&lookback=1000&corr_method=distance") - bytes("periods=20&lookback=1000")).toBeLessThanOrEqual(
    2 * DCOR_HELD_BYTES,
  );
  // Every as-of's tree is kept only with include_graph=all.
  expect(bytes("periods=20&hierarchy=single&include_graph=all") - bytes("periods=20&include_graph=all")).toBeGreaterThan(
    bytes("periods=20&hierarchy=single") - bytes("periods=20"),
  );
});
