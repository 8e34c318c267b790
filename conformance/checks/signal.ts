/**
 * The signal-or-noise parameters (docs/api.md § Signal or noise): spectrum, include_corr, bootstrap
 * and seed. They are an extension of the interface, so each check runs only where the deployment's
 * OpenAPI document lists the parameters it sends, and is skipped saying which it lacks otherwise:
 * another implementation is not failed for leaving them out, but one that advertises them is held
 * to the documented shapes. Every question is a fresh user's call (--secret), so the minute limit
 * never decides an answer.
 */
import { must } from "../lib/assert.ts";
import type { Check } from "../lib/check.ts";
import { type Context, LIVE_PATH } from "../lib/context.ts";
import { withParam } from "../lib/plain-query.ts";
import { mustAcceptQuery } from "../lib/scenarios.ts";
import { type Exchange, Skip } from "../lib/types.ts";

const CITES = "docs/api.md § Signal or noise";
/** Numbers are written with 6 decimals: two sides of a relation may each be off by half a unit. */
const ROUNDING = 1e-6;
/** Replicates of the bootstrap checks: few, so a deployment spends little on them. */
const B = 20;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const data = (ex: Exchange): Obj => {
  const d = (ex.json as Obj | undefined)?.data;
  return isObj(d) ? d : {};
};

/** Skips unless the document lists every one of `names` as a query parameter of the live endpoint. */
async function mustAdvertise(ctx: Context, names: string[]): Promise<void> {
  const doc = await ctx.document();
  if (!doc)
    throw new Skip(`an extension (${names.join(", ")}): checked only where the deployment's OpenAPI document lists it, and there is none`);
  const op = doc.operations.find((o) => o.path === LIVE_PATH);
  const listed = new Set(op?.params.filter((p) => p.in === "query").map((p) => p.name) ?? []);
  const lacking = names.filter((n) => !listed.has(n));
  if (lacking.length) {
    throw new Skip(`an extension: ${doc.source} does not list ${lacking.join(", ")} for GET ${LIVE_PATH}, so it is not held to them`);
  }
}

/** The plain query with `extra` (name=value pairs) set, asked by a fresh user; a 200 in the success envelope. */
async function ask(ctx: Context, extra: Record<string, string>, why: string): Promise<Exchange> {
  let q = (await ctx.plainQuery(LIVE_PATH)).query;
  for (const [k, v] of Object.entries(extra)) q = withParam(q, k, v);
  const ex = await ctx.live(await ctx.freshToken(why), q);
  await mustAcceptQuery(ctx, ex);
  must(ex.status === 200 && (ex.json as Obj | undefined)?.success === true, `GET ${ex.path} answered ${ex.status}, expected 200`, ex);
  return ex;
}

/** The graph object of a snapshot, or the latest of a rolling answer. */
function graphOf(ex: Exchange): Obj {
  const d = data(ex);
  const g = d.graph ?? d.latest_graph;
  must(isObj(g), "data.graph is not an object", ex);
  return g;
}

function spectrumProblems(s: unknown): string[] {
  if (!isObj(s)) return [`spectrum is ${JSON.stringify(s)}, expected an object`];
  const p: string[] = [];
  const e = s.eigenvalues;
  if (!Array.isArray(e) || !e.every(isNum)) return ["spectrum.eigenvalues is not a list of numbers"];
  for (let k = 1; k < e.length; k++) if (e[k]! > e[k - 1]! + ROUNDING) p.push(`eigenvalues not descending at ${k}: ${e[k - 1]}, ${e[k]}`);
  const n = e.length;
  const lp = s.lambda_plus;
  if (!isNum(lp) || (n > 0 && lp < 1)) p.push(`lambda_plus is ${JSON.stringify(lp)}, expected (1 + √(n/L))² ≥ 1`);
  const above = isNum(lp) ? e.filter((v) => v > lp + ROUNDING).length : 0;
  const atMost = isNum(lp) ? e.filter((v) => v > lp - ROUNDING).length : n;
  if (!Number.isInteger(s.n_above) || (s.n_above as number) < above || (s.n_above as number) > atMost)
    p.push(`n_above is ${JSON.stringify(s.n_above)}, but ${above} eigenvalues lie above lambda_plus ${lp}`);
  if (n > 0) {
    // A correlation matrix's eigenvalues sum to its trace, n.
    const trace = e.reduce((a, b) => a + b, 0);
    if (Math.abs(trace - n) > 1e-3 * n) p.push(`the ${n} eigenvalues sum to ${trace}, not the trace ${n}`);
    const top = e.slice(0, Math.ceil(n / 5)).reduce((a, b) => a + b, 0) / n;
    if (!isNum(s.absorption_ratio) || Math.abs(s.absorption_ratio - top) > 1e-5)
      p.push(`absorption_ratio is ${JSON.stringify(s.absorption_ratio)}, expected the top ⌈n/5⌉ eigenvalues ÷ n = ${top}`);
  }
  return p;
}

/** Every edge's reliability a share of B replicates in [0, 1]; every stock's <metric>_p05 ≤ <metric>_p95. */
function bootstrapProblems(ex: Exchange, replicates: number): string[] {
  const p: string[] = [];
  const edges = graphOf(ex).edge_list;
  if (!Array.isArray(edges)) return ["graph.edge_list is not an array"];
  for (const [i, e] of edges.entries()) {
    const r = isObj(e) ? e.reliability : undefined;
    if (!isNum(r) || r < 0 || r > 1) p.push(`edge_list[${i}].reliability is ${JSON.stringify(r)}, expected a share in [0, 1]`);
    else if (Math.abs(r * replicates - Math.round(r * replicates)) > replicates * ROUNDING)
      p.push(`edge_list[${i}].reliability ${r} is no share of ${replicates} replicates`);
  }
  const d = data(ex);
  const metrics = Array.isArray(d.metrics) ? (d.metrics as string[]) : [];
  if (metrics.length === 0) p.push("data.metrics lists no metric");
  const stocks = Array.isArray(d.stocks) ? d.stocks : [];
  for (const s of stocks) {
    if (!isObj(s)) continue;
    const rows = Array.isArray(s.points) ? s.points.filter(isObj) : [s];
    for (const row of rows)
      for (const m of metrics) {
        const [lo, hi] = [row[`${m}_p05`], row[`${m}_p95`]];
        if (lo === null && hi === null) continue;
        if (!isNum(lo) || !isNum(hi)) p.push(`${s.symbol}: ${m}_p05, ${m}_p95 are ${JSON.stringify(lo)}, ${JSON.stringify(hi)}`);
        else if (lo > hi) p.push(`${s.symbol}: ${m}_p05 ${lo} > ${m}_p95 ${hi}`);
        else if (replicates === 1 && lo !== hi) p.push(`${s.symbol}: with one replicate ${m}_p05 ${lo} ≠ ${m}_p95 ${hi}`);
      }
  }
  return p;
}

export const SIGNAL_CHECKS: Check[] = [
  {
    id: "signal.spectrum",
    title: "spectrum=true: the graph carries descending eigenvalues summing to n, λ₊, the count above it and the absorption ratio",
    cites: CITES,
    profile: "core",
    async run(ctx) {
      await mustAdvertise(ctx, ["spectrum"]);
      const ex = await ask(ctx, { spectrum: "true" }, "signal.spectrum");
      const g = graphOf(ex);
      const p = spectrumProblems(g.spectrum);
      const e = isObj(g.spectrum) ? g.spectrum.eigenvalues : undefined;
      if (Array.isArray(e) && Number.isInteger(g.nodes) && e.length !== g.nodes) p.push(`${e.length} eigenvalues for ${g.nodes} nodes`);
      must(p.length === 0, p.slice(0, 5).join("; "), ex);
    },
  },
  {
    id: "signal.corr-matrix",
    title: "include_corr=true: corr_matrix is symmetric with a unit diagonal, in [−1, 1], in stocks order, and holds the edges' corr",
    cites: CITES,
    profile: "core",
    async run(ctx) {
      await mustAdvertise(ctx, ["include_corr", "include_graph"]);
      const ex = await ask(ctx, { include_graph: "true", include_corr: "true" }, "signal.corr-matrix");
      const g = graphOf(ex);
      const c = g.corr_matrix;
      must(isObj(c) && Array.isArray(c.symbols) && Array.isArray(c.matrix), "graph.corr_matrix lacks symbols or matrix", ex);
      const symbols = c.symbols as string[];
      const m = c.matrix as unknown[][];
      const order = ((data(ex).stocks as Obj[] | undefined) ?? []).map((s) => s.symbol);
      const at = symbols.map((s) => order.indexOf(s));
      const p: string[] = [];
      if (symbols.length < 2) p.push(`corr_matrix has ${symbols.length} symbols`);
      if (at.some((k, i) => k < 0 || (i > 0 && k <= at[i - 1]!))) p.push("corr_matrix.symbols are not stocks in the order of data.stocks");
      if (m.length !== symbols.length || m.some((r) => !Array.isArray(r) || r.length !== symbols.length))
        p.push(`corr_matrix.matrix is not ${symbols.length}×${symbols.length}`);
      else
        for (let i = 0; i < m.length; i++)
          for (let j = 0; j < m.length; j++) {
            const v = m[i]![j];
            if (!isNum(v) || v < -1 || v > 1) p.push(`matrix[${i}][${j}] is ${JSON.stringify(v)}, outside [−1, 1]`);
            else if (i === j && v !== 1) p.push(`matrix[${i}][${i}] is ${v}, not 1`);
            else if (v !== m[j]![i]) p.push(`matrix[${i}][${j}] ${v} ≠ matrix[${j}][${i}] ${m[j]![i]}`);
          }
      // The graph was built from this matrix: each edge's corr is its cell.
      for (const e of Array.isArray(g.edge_list) ? (g.edge_list as Obj[]) : []) {
        const [i, j] = [symbols.indexOf(e.source as string), symbols.indexOf(e.target as string)];
        const v = i >= 0 && j >= 0 ? m[i]?.[j] : undefined;
        if (!isNum(v) || !isNum(e.corr) || Math.abs(v - e.corr) > ROUNDING)
          p.push(`edge ${e.source}–${e.target} has corr ${e.corr}, the matrix ${JSON.stringify(v)}`);
      }
      must(p.length === 0, p.slice(0, 5).join("; "), ex);
    },
  },
  {
    id: "signal.bootstrap",
    title: `bootstrap=${B}: each edge's reliability is a share of the replicates in [0, 1], each <metric>_p05 ≤ <metric>_p95; bootstrap=1 is answered too`,
    cites: CITES,
    profile: "core",
    async run(ctx) {
      await mustAdvertise(ctx, ["bootstrap", "seed", "include_graph"]);
      for (const replicates of [B, 1]) {
        const ex = await ask(ctx, { include_graph: "true", bootstrap: String(replicates), seed: "7" }, "signal.bootstrap");
        const p = bootstrapProblems(ex, replicates);
        must(p.length === 0, `bootstrap=${replicates}: ${p.slice(0, 5).join("; ")}`, ex);
      }
    },
  },
  {
    id: "signal.bootstrap-seed",
    title: "the same seed gives the same answer: two users asking bootstrap with one seed get identical data",
    cites: CITES,
    profile: "core",
    async run(ctx) {
      await mustAdvertise(ctx, ["bootstrap", "seed", "include_graph"]);
      const q = { include_graph: "true", bootstrap: String(B), seed: "4294967295" };
      const [a, b] = [await ask(ctx, q, "signal.bootstrap-seed"), await ask(ctx, q, "signal.bootstrap-seed")];
      must(JSON.stringify(data(a)) === JSON.stringify(data(b)), "the two answers' data differ", a, b);
    },
  },
];
