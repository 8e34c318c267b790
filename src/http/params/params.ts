/**
 * Query string → `ChartParams` for `GET /v1/graph-stats/chart`. Every problem is reported
 * (not just the first), one message each, naming the parameter, the value received and
 * what is allowed. Per-parameter rules live in `params-fields.ts`.
 */
import type { ChartParams } from "../../engine/types.ts";
import type { Format } from "../../compute/serialise.ts";
import { FIELDS, MAX_POINTS, PARAM_NAMES, SYMBOL_RE, shown, type ParamName } from "./params-fields.ts";

export { MAX_POINTS, PARAM_DOCS, PARAM_NAMES } from "./params-fields.ts";

/** The engine's parameters, and the response's format (the HTTP layer's alone). */
export type ParseResult = { ok: true; params: ChartParams; format: Format } | { ok: false; errors: string[] };

/** Validates the chart query. `defaultUniverse` applies when neither universe nor symbols is given. */
export function parseChartParams(query: URLSearchParams, opts: { defaultUniverse: string }): ParseResult {
  const errors: string[] = [];
  const raw = collectRaw(query, errors);
  const values: Partial<Record<ParamName, unknown>> = {};
  for (const name of PARAM_NAMES) {
    const given = raw.get(name);
    if (given === undefined) {
      values[name] = FIELDS[name].default;
      continue;
    }
    const parsed = FIELDS[name].schema.safeParse(given);
    if (parsed.success) values[name] = parsed.data;
    else errors.push(...parsed.error.issues.map((i) => i.message));
  }
  crossChecks(raw, values, errors);
  if (errors.length > 0) return { ok: false, errors };
  const v = values as Required<typeof values>;
  const symbols = v.symbols as string[] | null;
  const params: ChartParams = {
    universe: symbols ? null : ((v.universe as string | null) ?? opts.defaultUniverse),
    symbols,
    interval: v.interval as ChartParams["interval"],
    lookback: v.lookback as number,
    periods: v.periods as number,
    step: v.step as number,
    asof: v.asof as string | null,
    start: v.start as string | null,
    end: v.end as string | null,
    metrics: v.metrics as ChartParams["metrics"],
    graph_method: v.graph_method as ChartParams["graph_method"],
    knn_k: v.knn_k as number,
    corr_threshold: v.corr_threshold as number,
    corr_method: v.corr_method as ChartParams["corr_method"],
    halflife: v.halflife as number,
    shrinkage: v.shrinkage as ChartParams["shrinkage"],
    market_mode: v.market_mode as ChartParams["market_mode"],
    hierarchy: effectiveHierarchy(raw, v),
    hierarchy_distance: v.hierarchy_distance as ChartParams["hierarchy_distance"],
    clusters: v.clusters as number | null,
    weights: v.weights as ChartParams["weights"],
    denoise: v.denoise as ChartParams["denoise"],
    detone: v.detone as number,
    spectrum: v.spectrum as boolean,
    include_corr: v.include_corr as boolean,
    bootstrap: v.bootstrap as number | null,
    seed: v.seed as number,
    include_graph: v.include_graph as ChartParams["include_graph"],
    sort: v.sort as ChartParams["sort"],
  };
  return { ok: true, params, format: v.format as Format };
}

/** weights=hrp needs a tree: without a hierarchy given it is single linkage, López de Prado's (docs/api.md § Hierarchy). */
function effectiveHierarchy(raw: Map<ParamName, string>, v: Partial<Record<ParamName, unknown>>): ChartParams["hierarchy"] {
  if (!raw.has("hierarchy") && v.weights === "hrp") return "single";
  return v.hierarchy as ChartParams["hierarchy"];
}

/** One value per known name; unknown and repeated names become errors. */
function collectRaw(query: URLSearchParams, errors: string[]): Map<ParamName, string> {
  const out = new Map<ParamName, string>();
  const counts = new Map<string, number>();
  for (const [key, value] of query) {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!(PARAM_NAMES as string[]).includes(key)) {
      if (counts.get(key) === 1) errors.push(unknownMessage(key, value));
      continue;
    }
    if (counts.get(key) === 1) out.set(key as ParamName, value);
  }
  for (const [key, n] of counts) {
    if (n > 1 && (PARAM_NAMES as string[]).includes(key)) {
      const hint = key === "symbols" || key === "metrics" ? ` as one comma-separated list, e.g. ${key}=a,b` : "";
      errors.push(`${key} is given ${n} times; give it once${hint}`);
      out.delete(key as ParamName);
    }
  }
  return out;
}

function unknownMessage(key: string, value: string): string {
  const base = `unknown parameter ${shown(key)}`;
  const near = PARAM_NAMES.find((p) => p.toLowerCase() === key.toLowerCase().replace(/-/g, "_"));
  if (near) return `${base}; did you mean '${near}'? (names are lower-case)`;
  // `symbols=M&M` arrives as symbols=M plus a parameter named M.
  if (value === "" && SYMBOL_RE.test(key.split(",")[0])) {
    return `${base}; if it is part of a symbol such as M&M, encode & as %26; allowed parameters: ${PARAM_NAMES.join(", ")}`;
  }
  return `${base}; allowed parameters: ${PARAM_NAMES.join(", ")}`;
}

function crossChecks(raw: Map<ParamName, string>, v: Partial<Record<ParamName, unknown>>, errors: string[]): void {
  if (raw.has("universe") && raw.has("symbols")) {
    errors.push(`give either universe or symbols, not both (got universe=${shown(raw.get("universe")!)} and symbols)`);
  }
  const sort = v.sort as string | null | undefined;
  const metrics = v.metrics as string[] | undefined;
  if (sort && metrics && !metrics.includes(sort)) {
    errors.push(
      `sort must be one of the requested metrics (${metrics.join(", ")}), got ${shown(sort)}; add it to metrics or sort by one of those`,
    );
  }
  rangeChecks(raw, errors);
  const method = v.corr_method as string | undefined;
  if (raw.has("halflife") && method && method !== "ewma") {
    errors.push(
      `halflife applies only to corr_method=ewma, got corr_method=${shown(raw.get("corr_method") ?? "pearson")}; add corr_method=ewma or drop halflife`,
    );
  }
  if (v.shrinkage === "ledoit_wolf" && method && method !== "pearson") {
    errors.push(
      `shrinkage=ledoit_wolf works on the sample covariance, so it needs corr_method=pearson, got corr_method=${shown(method)}; use corr_method=pearson or shrinkage=none`,
    );
  }
  hierarchyChecks(raw, v, errors);
  researchChecks(raw, v, errors);
  const symbols = v.symbols as string[] | null | undefined;
  const periods = v.periods as number | undefined;
  if (symbols && periods && periods * symbols.length > MAX_POINTS) {
    errors.push(
      `periods x symbols must be at most ${MAX_POINTS}, got ${periods} x ${symbols.length} = ${periods * symbols.length}; ` +
        `request fewer periods or symbols`,
    );
  }
}

/**
 * hierarchy, hierarchy_distance, clusters and weights (docs/api.md § Hierarchy, § Portfolio weights):
 * the last three need a tree, which weights=hrp brings by itself (single linkage).
 */
function hierarchyChecks(raw: Map<ParamName, string>, v: Partial<Record<ParamName, unknown>>, errors: string[]): void {
  const hierarchy = v.hierarchy as string | undefined;
  const weights = v.weights as string | undefined;
  if (hierarchy === undefined || weights === undefined) return; // already reported
  if (weights === "hrp" && raw.has("hierarchy") && hierarchy === "none") {
    errors.push(
      "weights=hrp allocates down a hierarchical clustering tree, so it needs a linkage, got hierarchy='none'; " +
        "give hierarchy=single, average, complete or ward, or leave hierarchy out (single is used)",
    );
  }
  const tree = hierarchy !== "none" || weights === "hrp";
  for (const name of ["hierarchy_distance", "clusters"] as const) {
    if (raw.has(name) && !tree) {
      errors.push(
        `${name} applies only to a hierarchical clustering, got ${name}=${shown(raw.get(name)!)} without hierarchy; ` +
          `add hierarchy=single, average, complete or ward (or weights=hrp), or drop ${name}`,
      );
    }
  }
  if (tree && v.hierarchy_distance === "signed" && v.corr_method === "distance") {
    errors.push(
      "hierarchy_distance=signed reads the sign of the correlation, and corr_method=distance has none (distance correlation is in [0, 1], " +
        "so both distances are the same); drop hierarchy_distance, or choose corr_method=pearson, spearman, ewma or kendall",
    );
  }
  const format = v.format as string | undefined;
  if (hierarchy !== "none" && raw.has("hierarchy") && format && format !== "json" && (v.clusters ?? null) === null && weights !== "hrp") {
    errors.push(
      `the hierarchy's linkage matrix and leaf order are in format=json only, and format=${shown(format)} rows would carry nothing of it; ` +
        "use format=json, or add clusters=k for cluster rows (or weights=hrp for weight rows)",
    );
  }
}

/**
 * denoise, detone, spectrum, include_corr, bootstrap and seed (docs/api.md § Signal or noise): the
 * filters work on a correlation matrix, which distance correlation is not; seed only seeds bootstrap.
 */
function researchChecks(raw: Map<ParamName, string>, v: Partial<Record<ParamName, unknown>>, errors: string[]): void {
  if (raw.has("seed") && !raw.has("bootstrap")) {
    errors.push(
      `seed applies only to bootstrap, got seed=${shown(raw.get("seed")!)} without bootstrap; add bootstrap=B (1 to 1000) or drop seed`,
    );
  }
  const filters = v.denoise === "mp" || (typeof v.detone === "number" && v.detone > 0);
  if (filters && v.corr_method === "distance") {
    errors.push(
      "denoise and detone filter the eigenvalues of a correlation matrix, and corr_method=distance gives distance correlations " +
        "(in [0, 1], not a correlation matrix: no Marchenko-Pastur law holds for them); drop denoise/detone, or choose corr_method=pearson, spearman, ewma or kendall",
    );
  }
  if (v.include_corr === true && v.include_graph === false) {
    errors.push(
      "include_corr=true returns the matrix each graph was built from, beside the graph, and include_graph=false returns no graph; " +
        "use include_graph=true (the latest as-of) or all (every as-of), or drop include_corr",
    );
  }
  if (typeof v.bootstrap === "number" && v.graph_method === "complete") {
    errors.push(
      "bootstrap measures how often each edge of a filtered graph survives resampling, and with graph_method=complete every replicate " +
        "has every edge (each reliability would be 1 by construction); choose graph_method=mst, knn, threshold, tmfg or pmfg",
    );
  }
}

/** start/end replace periods and asof: both dates, in order, and neither of the other two. */
function rangeChecks(raw: Map<ParamName, string>, errors: string[]): void {
  const start = raw.get("start");
  const end = raw.get("end");
  if (start === undefined && end === undefined) return;
  if (start === undefined || end === undefined) {
    const [given, missing] = start === undefined ? ["end", "start"] : ["start", "end"];
    errors.push(`${given} needs ${missing} too: give both start and end (YYYY-MM-DD), or neither and use periods`);
    return;
  }
  for (const other of ["periods", "asof"] as const) {
    if (raw.has(other)) {
      errors.push(
        `give either start/end or ${other}, not both (got start=${shown(start)}, end=${shown(end)} and ${other}=${shown(raw.get(other)!)})`,
      );
    }
  }
  if (start > end) errors.push(`start must be on or before end, got start=${shown(start)} and end=${shown(end)}`);
}
