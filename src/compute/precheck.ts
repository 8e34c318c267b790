/**
 * Every refusal the data can cause, decided before admission from bar metadata
 * (docs/api.md § Refused before metering): the interval, the as-of dates (history length, range,
 * before the first bar), the response size (points plus the edges returned) and the computation
 * cost. It runs the engine's own as-of resolution on the union calendar the metadata describes, so
 * its answers and messages are the ones computeChart would give after loading the series — without
 * loading them.
 */
import { resolveAsofs } from "../engine/asofs.ts";
import { MAX_POINTS } from "../engine/limits.ts";
import { ChartError, type ChartParams } from "../engine/types.ts";
import { type BarCoverage, UnionCalendar } from "../market/bar-coverage.ts";
import type { LoadPlan } from "../market/series-loader.ts";
import { formatOffset } from "../market/timestamps.ts";
import { sourceFor } from "../market/series.ts";
import { maxEdges, renderCost, requestCost } from "./request-cost.ts";
import { renderBytes, requestBytes } from "./request-memory.ts";
import type { Format } from "./serialise.ts";

export interface Precheck {
  /** Estimated cost (request-cost.ts), milliseconds of one core. */
  cost: number;
  /** Estimated peak memory of the computation (request-memory.ts). */
  bytes: number;
  asofCount: number;
  /** A csv/ndjson answer of a result already computed: the render job's cost and bytes alone. */
  render: { cost: number; bytes: number } | null;
  /** The buckets the request's windows cover, and the stored interval they are read from: all it loads. */
  load: LoadPlan;
}

/** Throws ChartError for a request the data cannot serve or the budget does not allow. */
export function precheck(
  meta: BarCoverage,
  symbols: readonly string[],
  params: ChartParams,
  budget: number,
  format: Format = "json",
): Precheck {
  const source = sourceFor(symbols, params.interval, meta.stored);
  if (!source) throw new ChartError("no-data", "no bars exist for the requested symbols at this interval");
  const coverage = meta.coverage(source, params.interval);
  const calendar = new UnionCalendar(coverage, symbols);
  if (calendar.length === 0) throw new ChartError("no-data", "no bars exist for the requested symbols at this interval");
  const asofs = resolveAsofs({ symbols: [...symbols], labels: calendar.labels(), closes: [] }, params);
  const n = symbols.length;
  checkSize(params, n, asofs.length);
  checkMembers(calendar, symbols, params, asofs, lackingSource(meta, symbols, source));
  // The windows reach from lookback bars before the first as-of to the last one; nothing else is read.
  const first = asofs[0]! - params.lookback;
  const last = asofs[asofs.length - 1]!;
  const load = { version: meta.version, source, from: coverage.ts[calendar.slot(first)]!, to: coverage.ts[calendar.slot(last)]! };
  const read = { bars: last - first + 1, perBar: source === params.interval ? 1 : coverage.barsPerBucket };
  const cost = requestCost(params, n, asofs.length, format, read);
  if (cost > budget) {
    throw new ChartError(
      "over-budget",
      `estimated cost ${cost} exceeds the budget of ${budget} (milliseconds of one core, estimated from ${n} symbols, ` +
        `${asofs.length} as-of dates and the parameters; see docs/api.md § Request cost); request fewer symbols or periods, ` +
        `a shorter lookback, pearson, a sparse graph_method (mst, tmfg, knn with a smaller knn_k), fewer centrality metrics ` +
        `or include_graph=false`,
    );
  }
  const render =
    format === "json" ? null : { cost: renderCost(params, n, asofs.length, format), bytes: renderBytes(params, n, asofs.length, format) };
  return { cost, bytes: requestBytes(params, n, asofs.length, read.bars, format, read.perBar), asofCount: asofs.length, render, load };
}

/**
 * Points plus the edge rows returned (the latest graph, or every as-of's with include_graph=all),
 * plus with hierarchy the merge rows of the dendrograms returned (n − 1 each, on the same as-ofs),
 * plus with include_corr and include_graph=all every as-of's n² matrix cells (the engine's
 * RowBudget), at worst.
 */
function checkSize(params: ChartParams, n: number, asofCount: number): void {
  const tree = params.hierarchy !== "none";
  if (!params.include_graph && !tree) return;
  const points = asofCount * n;
  const graphs = params.include_graph === "all" ? asofCount : 1;
  const edges = params.include_graph ? graphs * maxEdges(params, n) : 0;
  const merges = tree ? graphs * Math.max(0, n - 1) : 0;
  const cells = params.include_corr && params.include_graph === "all" ? graphs * n * n : 0;
  if (points + edges + merges + cells <= MAX_POINTS) return;
  const rows = [
    params.include_graph ? `${edges} edge rows` : "",
    tree ? `${merges} hierarchy merges` : "",
    cells ? `${cells} correlation matrix cells` : "",
  ]
    .filter(Boolean)
    .join(" plus ");
  const fixes = ["fewer symbols"];
  if (params.include_graph) fixes.push("a sparser graph_method (mst, tmfg, pmfg, knn)");
  if (cells) fixes.push("include_corr=false");
  if (params.include_graph === "all") fixes.push("include_graph=true");
  if (params.include_graph) fixes.push("include_graph=false");
  if (tree) fixes.push(`hierarchy=none${params.weights === "hrp" ? " (with weights other than hrp)" : ""}`);
  throw new ChartError(
    "too-large",
    `the response would hold up to ${points} points plus ${rows} (graph_method=${params.graph_method} over ${n} symbols` +
      `${graphs > 1 ? `, ${graphs} as-of dates` : ""}), more than ${MAX_POINTS}; request ${fixes.slice(0, -1).join(", ")}` +
      `${fixes.length > 1 ? " or " : ""}${fixes[fixes.length - 1]}`,
  );
}

/** At least one as-of must have 2 symbols with a bar at each of its lookback + 1 bars (else the engine's 404). */
function checkMembers(calendar: UnionCalendar, symbols: readonly string[], params: ChartParams, asofs: number[], lacking = ""): void {
  for (let i = asofs.length - 1; i >= 0; i--) {
    const t = asofs[i]!;
    let members = 0;
    for (const s of symbols) {
      if (calendar.barsBetween(s, t - params.lookback, t) === params.lookback + 1 && ++members >= 2) return;
    }
  }
  const t = asofs[asofs.length - 1]!;
  const short = symbols.filter((s) => calendar.barsBetween(s, t - params.lookback, t) < params.lookback + 1);
  throw new ChartError(
    "no-usable-symbols",
    `only ${symbols.length - short.length} of ${symbols.length} symbols can be used up to ${calendar.label(t).slice(0, 10)} ` +
      `(lookback ${params.lookback} at interval ${params.interval}); at least 2 are needed; without a bar at each of the ` +
      `${params.lookback + 1} bars: ${short.slice(0, 20).join(", ")}${short.length > 20 ? ", …" : ""}` +
      (asofs.length > 1 ? "; this holds at every requested as-of" : "") +
      lacking +
      mixedOffsets(calendar, symbols, params),
  );
}

/**
 * The source interval is chosen from what any requested symbol stores, so a symbol shared with
 * another universe can bring an interval this universe's other members lack: name those members
 * (at most 20) and what they store instead, judged by these symbols alone.
 */
function lackingSource(meta: BarCoverage, symbols: readonly string[], source: string): string {
  const lacking = symbols.filter((s) => !meta.stored.get(s)?.includes(source as never));
  if (lacking.length === 0) return "";
  const others = [...new Set(lacking.flatMap((s) => meta.stored.get(s) ?? []))];
  return (
    `; ${lacking.length} of ${symbols.length} symbols store no ${source} bars: ${lacking.slice(0, 20).join(", ")}` +
    `${lacking.length > 20 ? ", …" : ""}${others.length ? ` (they store ${others.join(", ")} only)` : ""}`
  );
}

/**
 * Daily or weekly bars of symbols at different UTC offsets start at different instants, so their
 * dates never line up on one calendar and each symbol misses the others' bars: say so, and how to fix it.
 */
function mixedOffsets(calendar: UnionCalendar, symbols: readonly string[], params: ChartParams): string {
  if (params.interval !== "1d" && params.interval !== "1w") return "";
  const byOffset = new Map<number, string[]>();
  for (const s of symbols) {
    const off = calendar.offsetOf(s);
    if (off === null) continue;
    if (!byOffset.has(off)) byOffset.set(off, []);
    byOffset.get(off)!.push(s);
  }
  if (byOffset.size < 2) return "";
  const groups = [...byOffset].map(
    ([off, syms]) => `${formatOffset(off)} for ${syms.slice(0, 5).join(", ")}${syms.length > 5 ? ", …" : ""}`,
  );
  return (
    `; these symbols' bars are at different UTC offsets (${groups.join("; ")}), so their dates do not line up: ` +
    "re-import them at one offset (import --default-offset … --replace)"
  );
}
