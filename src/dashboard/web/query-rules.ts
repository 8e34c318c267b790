/**
 * The rules between the query form's fields that the server also checks (src/http/params/params.ts),
 * so the form never sends a query the server would refuse. The bounds of single fields are the
 * inputs' own (min, max, pattern: rendered from the API's by query-form-html.ts).
 */

export interface Problem {
  /** The parameter name of the field to mark. */
  field: string;
  message: string;
}

export interface QueryLimits {
  symbols: { min: number; max: number; entry: RegExp };
  /** periods × symbols, the most points one answer may hold. */
  maxPoints: number;
}

/** `params` as the form sends them (formParams: symbols already one comma list). */
export function queryProblems(params: Record<string, string>, limits: QueryLimits): Problem[] {
  const problems: Problem[] = [];
  if (params.symbols !== undefined) problems.push(...symbolProblems(params, limits));
  if (params.shrinkage === "ledoit_wolf" && (params.corr_method ?? "pearson") !== "pearson") {
    problems.push({
      field: "shrinkage",
      message: "Shrinkage: Ledoit–Wolf needs Pearson correlation (it shrinks the sample covariance). Choose Pearson, or None.",
    });
  }
  if (params.clusters !== undefined && !params.hierarchy && params.weights !== "hrp") {
    problems.push({
      field: "clusters",
      message: "Clusters cut a hierarchy: choose a hierarchy (or hierarchical risk parity weights), or leave Clusters empty.",
    });
  }
  problems.push(...signalProblems(params));
  return problems;
}

/** denoise and detone need a correlation matrix; bootstrap needs a filtered graph (params.ts researchChecks). */
function signalProblems(params: Record<string, string>): Problem[] {
  const problems: Problem[] = [];
  if (params.corr_method === "distance") {
    if (params.denoise === "mp")
      problems.push({
        field: "denoise",
        message: "Denoise: distance correlations are not a correlation matrix. Choose another correlation, or None.",
      });
    if (Number(params.detone ?? "0") > 0)
      problems.push({
        field: "detone",
        message: "Detone: distance correlations are not a correlation matrix. Choose another correlation, or 0.",
      });
  }
  if (params.bootstrap !== undefined && (params.graph_method ?? "mst") === "complete") {
    problems.push({
      field: "bootstrap",
      message: "Bootstrap: the complete graph holds every edge in every resample. Choose another graph method, or leave Bootstrap empty.",
    });
  }
  return problems;
}

function symbolProblems(params: Record<string, string>, limits: QueryLimits): Problem[] {
  const list = params.symbols.split(",");
  const { min, max, entry } = limits.symbols;
  const bad = list.filter((s) => !entry.test(s));
  const twice = [...new Set(list.filter((s, i) => list.indexOf(s) !== i))];
  const problems: Problem[] = [];
  const quoted = (xs: string[]) => xs.map((s) => `'${s.length > 32 ? `${s.slice(0, 32)}…` : s}'`).join(", ");
  if (bad.length) {
    problems.push({
      field: "symbols",
      message: `Symbols: ${quoted(bad)} ${bad.length === 1 ? "is not a symbol" : "are not symbols"} (1 to 32 letters, digits or & . _ -).`,
    });
  } else if (twice.length) {
    problems.push({ field: "symbols", message: `Symbols: ${quoted(twice)} listed more than once.` });
  } else if (list.length < min || list.length > max) {
    problems.push({ field: "symbols", message: `Symbols: list ${min} to ${max} symbols; this lists ${list.length}.` });
  }
  const periods = Number(params.periods ?? "1");
  if (Number.isFinite(periods) && periods * list.length > limits.maxPoints) {
    problems.push({
      field: "periods",
      message: `Periods: periods × symbols may be at most ${limits.maxPoints} (${periods} × ${list.length} = ${periods * list.length}). Ask for fewer periods or symbols.`,
    });
  }
  return problems;
}
