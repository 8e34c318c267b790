/**
 * One zod schema per query parameter of `GET /v1/graph-stats/chart`
 * (docs/api.md § GET /v1/graph-stats/chart): its default, bounds and the exact message a caller
 * sees. `params.ts` adds the checks that involve several parameters.
 */
import { z } from "zod";
import { MAX_POINTS, PERIODS } from "../../engine/limits.ts";
import { SYMBOL_PATTERN, UNIVERSE_PATTERN } from "../../market/symbols.ts";
import {
  CORR_METHODS,
  DENOISES,
  GRAPH_METHODS,
  HIERARCHIES,
  HIERARCHY_DISTANCES,
  INTERVALS,
  MARKET_MODES,
  METRICS,
  SHRINKAGES,
  WEIGHTS,
  type Metric,
} from "../../engine/types.ts";
import { FORMATS } from "../../compute/serialise.ts";

export { MAX_POINTS, PERIODS };

export const LOOKBACK = { min: 2, max: 1000, default: 60 } as const;
export const STEP = { min: 1, max: 250, default: 1 } as const;
export const KNN_K = { min: 1, max: 50, default: 4 } as const;
/** EWMA half-life in bars; decimals allowed (pandas' ewm(halflife=...) takes any positive number). */
export const HALFLIFE = { min: 1, max: 1000, default: 20 } as const;
export const SYMBOL_COUNT = { min: 2, max: 500 } as const;
/** detone=k: leading eigen-components removed (docs/engine.md § Random-matrix filtering). */
export const DETONE = { min: 0, max: 5, default: 0 } as const;
/** bootstrap=B replicates per as-of, and the seed of their row draws (docs/engine.md § Bootstrap). */
export const BOOTSTRAP = { min: 1, max: 1000 } as const;
export const SEED = { min: 0, max: 2 ** 32 - 1, default: 0 } as const;
/** Flat clusters k: up to the most symbols a request can have; k at or above an as-of's symbol count gives each its own cluster. */
export const CLUSTERS = { min: 1, max: SYMBOL_COUNT.max } as const;
/** The market layer's own names, so a request accepts exactly what can be stored; symbols keep their case (storage keys are case-sensitive). */
export const SYMBOL_RE = SYMBOL_PATTERN;
export const UNIVERSE_RE = UNIVERSE_PATTERN;

const SHOWN_MAX = 64;

/** A received value as it appears in messages: quoted, long values cut short. */
export function shown(raw: string): string {
  const cut = raw.length > SHOWN_MAX ? `${raw.slice(0, SHOWN_MAX)}…` : raw;
  return `'${cut}'`;
}

type Ctx = z.core.$RefinementCtx<string>;

function reject(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
}

function integer(name: string, b: { min: number; max: number }) {
  return z.string().transform((raw, ctx) => {
    const n = /^\+?[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (n >= b.min && n <= b.max) return n;
    return reject(ctx, `${name} must be an integer from ${b.min} to ${b.max}, got ${shown(raw)}`);
  });
}

function oneOf<const T extends readonly string[]>(name: string, allowed: T, what = "one of") {
  return z.string().transform((raw, ctx) => {
    if ((allowed as readonly string[]).includes(raw)) return raw as T[number];
    return reject(ctx, `${name} must be ${what} ${allowed.join(", ")}, got ${shown(raw)}`);
  });
}

/** Splits a comma list; entries are trimmed, so `A, B` works. */
function entries(raw: string): string[] {
  return raw.split(",").map((s) => s.trim());
}

const symbols = z.string().transform((raw, ctx) => {
  const list = entries(raw);
  const seen = new Set<string>();
  let bad = false;
  list.forEach((s, i) => {
    if (s === "") {
      bad = true;
      ctx.addIssue({ code: "custom", message: `symbols has an empty entry at position ${i + 1} in ${shown(raw)}` });
    } else if (!SYMBOL_RE.test(s)) {
      bad = true;
      ctx.addIssue({
        code: "custom",
        message: `symbols entry ${shown(s)} is not a valid symbol: 1 to 32 characters of A-Z a-z 0-9 & . _ - (encode & as %26)`,
      });
    } else if (seen.has(s)) {
      bad = true;
      ctx.addIssue({ code: "custom", message: `symbols lists ${shown(s)} more than once` });
    }
    seen.add(s);
  });
  if (list.length < SYMBOL_COUNT.min || list.length > SYMBOL_COUNT.max) {
    bad = true;
    ctx.addIssue({
      code: "custom",
      message: `symbols must list ${SYMBOL_COUNT.min} to ${SYMBOL_COUNT.max} symbols, got ${list.length} in ${shown(raw)}`,
    });
  }
  return bad ? z.NEVER : list;
});

const metrics = z.string().transform((raw, ctx) => {
  const out: Metric[] = [];
  let bad = false;
  for (const m of entries(raw)) {
    if (!(METRICS as readonly string[]).includes(m)) {
      bad = true;
      ctx.addIssue({
        code: "custom",
        message: `metrics entry ${shown(m)} is not a metric; allowed: ${METRICS.join(", ")} (comma-separated)`,
      });
    } else if (!out.includes(m as Metric)) out.push(m as Metric);
  }
  return bad ? z.NEVER : out;
});

function date(name: string) {
  return z.string().transform((raw, ctx) => {
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(raw);
    if (m) {
      const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      if (d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3]) return raw;
    }
    return reject(ctx, `${name} must be a calendar date YYYY-MM-DD, got ${shown(raw)}`);
  });
}

const DECIMAL_RE = /^\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

function decimal(name: string, b: { min: number; max: number }) {
  return z.string().transform((raw, ctx) => {
    const n = DECIMAL_RE.test(raw) ? Number(raw) : NaN;
    if (n >= b.min && n <= b.max) return n;
    return reject(ctx, `${name} must be a number from ${b.min} to ${b.max}, got ${shown(raw)}`);
  });
}

const includeGraph = z.string().transform((raw, ctx) => {
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  if (raw === "all") return "all" as const;
  return reject(ctx, `include_graph must be one of true, false, 1, 0, all, got ${shown(raw)}`);
});

function boolean(name: string) {
  return z.string().transform((raw, ctx) => {
    if (raw === "true" || raw === "1") return true;
    if (raw === "false" || raw === "0") return false;
    return reject(ctx, `${name} must be one of true, false, 1, 0, got ${shown(raw)}`);
  });
}

/** 0 … 2³²−1: ten digits, past `integer`'s nine. */
const seed = z.string().transform((raw, ctx) => {
  const n = /^\+?[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (n >= SEED.min && n <= SEED.max) return n;
  return reject(ctx, `seed must be an integer from ${SEED.min} to ${SEED.max} (2^32 - 1), got ${shown(raw)}`);
});

const universe = z.string().transform((raw, ctx) => {
  if (UNIVERSE_RE.test(raw)) return raw;
  return reject(ctx, `universe must be a name of 1 to 64 characters of A-Z a-z 0-9 . _ -, got ${shown(raw)}`);
});

/** Schema per parameter; a missing parameter takes `default` (params.ts fills the universe default). */
export const FIELDS = {
  universe: { schema: universe, default: null as string | null },
  symbols: { schema: symbols, default: null as string[] | null },
  interval: { schema: oneOf("interval", INTERVALS), default: "1d" as const },
  lookback: { schema: integer("lookback", LOOKBACK), default: LOOKBACK.default },
  periods: { schema: integer("periods", PERIODS), default: PERIODS.default },
  step: { schema: integer("step", STEP), default: STEP.default },
  asof: { schema: date("asof"), default: null as string | null },
  start: { schema: date("start"), default: null as string | null },
  end: { schema: date("end"), default: null as string | null },
  metrics: { schema: metrics, default: [...METRICS] as Metric[] },
  graph_method: { schema: oneOf("graph_method", GRAPH_METHODS), default: "mst" as const },
  knn_k: { schema: integer("knn_k", KNN_K), default: KNN_K.default },
  corr_threshold: { schema: decimal("corr_threshold", { min: 0, max: 1 }), default: 0.5 },
  corr_method: { schema: oneOf("corr_method", CORR_METHODS), default: "pearson" as const },
  halflife: { schema: decimal("halflife", HALFLIFE), default: HALFLIFE.default as number },
  shrinkage: { schema: oneOf("shrinkage", SHRINKAGES), default: "none" as const },
  market_mode: { schema: oneOf("market_mode", MARKET_MODES), default: "keep" as const },
  hierarchy: { schema: oneOf("hierarchy", HIERARCHIES), default: "none" as const },
  hierarchy_distance: { schema: oneOf("hierarchy_distance", HIERARCHY_DISTANCES), default: "unsigned" as const },
  clusters: { schema: integer("clusters", CLUSTERS), default: null as number | null },
  weights: { schema: oneOf("weights", WEIGHTS), default: "none" as const },
  denoise: { schema: oneOf("denoise", DENOISES), default: "none" as const },
  detone: { schema: integer("detone", DETONE), default: DETONE.default as number },
  spectrum: { schema: boolean("spectrum"), default: false as boolean },
  include_corr: { schema: boolean("include_corr"), default: false as boolean },
  bootstrap: { schema: integer("bootstrap", BOOTSTRAP), default: null as number | null },
  seed: { schema: seed, default: SEED.default as number },
  include_graph: { schema: includeGraph, default: true as boolean | "all" },
  sort: { schema: oneOf("sort", METRICS, "a metric name:"), default: null as Metric | null },
  format: { schema: oneOf("format", FORMATS), default: "json" as const },
} as const;

export type ParamName = keyof typeof FIELDS;
export const PARAM_NAMES = Object.keys(FIELDS) as ParamName[];

/** JSON-able description of every parameter, for docs and error hints. */
export const PARAM_DOCS: ReadonlyArray<{ name: ParamName; type: string; default: string; allowed: string }> = [
  {
    name: "universe",
    type: "name",
    default: "configured default (`sample` on a fresh install)",
    allowed: "a known universe; 1-64 of A-Z a-z 0-9 . _ -; not together with symbols",
  },
  {
    name: "symbols",
    type: "comma list",
    default: "none",
    allowed: `${SYMBOL_COUNT.min}-${SYMBOL_COUNT.max} distinct symbols, each 1-32 of A-Z a-z 0-9 & . _ - (exact case; encode & as %26)`,
  },
  { name: "interval", type: "code", default: "1d", allowed: INTERVALS.join(" ") },
  { name: "lookback", type: "integer", default: String(LOOKBACK.default), allowed: `${LOOKBACK.min}-${LOOKBACK.max} return bars` },
  {
    name: "periods",
    type: "integer",
    default: String(PERIODS.default),
    allowed: `${PERIODS.min}-${PERIODS.max}; periods x symbols <= ${MAX_POINTS}`,
  },
  { name: "step", type: "integer", default: String(STEP.default), allowed: `${STEP.min}-${STEP.max} bars between as-of bars` },
  {
    name: "asof",
    type: "YYYY-MM-DD",
    default: "latest bar",
    allowed: "a calendar date; the last bar whose local date is on or before it; not with start/end",
  },
  {
    name: "start",
    type: "YYYY-MM-DD",
    default: "none",
    allowed: `with end, instead of periods and asof: as-ofs every step bars back from end's bar to the first bar on or after start; at most ${PERIODS.max} as-ofs`,
  },
  {
    name: "end",
    type: "YYYY-MM-DD",
    default: "none",
    allowed: "with start; on or after start; the last bar whose local date is on or before it",
  },
  { name: "metrics", type: "comma list", default: "all five", allowed: `subset of ${METRICS.join(" ")}; order kept, duplicates dropped` },
  { name: "graph_method", type: "name", default: "mst", allowed: GRAPH_METHODS.join(" ") },
  { name: "knn_k", type: "integer", default: String(KNN_K.default), allowed: `${KNN_K.min}-${KNN_K.max}` },
  { name: "corr_threshold", type: "number", default: "0.5", allowed: "0-1" },
  { name: "corr_method", type: "name", default: "pearson", allowed: CORR_METHODS.join(" ") },
  {
    name: "halflife",
    type: "number",
    default: String(HALFLIFE.default),
    allowed: `${HALFLIFE.min}-${HALFLIFE.max} bars; only with corr_method=ewma`,
  },
  { name: "shrinkage", type: "name", default: "none", allowed: `${SHRINKAGES.join(" ")}; ledoit_wolf only with corr_method=pearson` },
  {
    name: "market_mode",
    type: "name",
    default: "keep",
    allowed: `${MARKET_MODES.join(" ")}; remove regresses each return series on the equal-weighted market return`,
  },
  {
    name: "hierarchy",
    type: "name",
    default: "none (single with weights=hrp)",
    allowed: `${HIERARCHIES.join(" ")}; a hierarchical clustering per as-of; its tree is in format=json only (csv/ndjson need clusters or weights=hrp)`,
  },
  {
    name: "hierarchy_distance",
    type: "name",
    default: "unsigned",
    allowed: `${HIERARCHY_DISTANCES.join(" ")}: sqrt(2(1-|rho|)) or sqrt(2(1-rho)); only with hierarchy or weights=hrp; signed not with corr_method=distance`,
  },
  {
    name: "clusters",
    type: "integer",
    default: "none",
    allowed: `${CLUSTERS.min}-${CLUSTERS.max}: at most k flat clusters of the hierarchy per as-of (k >= the symbols there: one each); only with hierarchy or weights=hrp`,
  },
  {
    name: "weights",
    type: "name",
    default: "none",
    allowed: `${WEIGHTS.join(" ")}; portfolio weights per as-of (hrp on the hierarchy's tree) and, rolling, their turnover`,
  },
  {
    name: "denoise",
    type: "name",
    default: "none",
    allowed: `${DENOISES.join(" ")}; mp: eigenvalues at or below the Marchenko-Pastur edge (1+sqrt(n/L))^2 replaced by their mean, after shrinkage`,
  },
  {
    name: "detone",
    type: "integer",
    default: String(DETONE.default),
    allowed: `${DETONE.min}-${DETONE.max} leading eigen-components removed (after denoise); the graph then reads the residual |rho|`,
  },
  {
    name: "spectrum",
    type: "boolean",
    default: "false",
    allowed: "true false 1 0: per graph, the eigenvalues before filtering, lambda_plus, n_above and the absorption ratio",
  },
  {
    name: "include_corr",
    type: "boolean",
    default: "false",
    allowed: "true false 1 0: per graph, the matrix it was built from (after every filter); csv/ndjson: corr rows",
  },
  {
    name: "bootstrap",
    type: "integer",
    default: "none",
    allowed: `${BOOTSTRAP.min}-${BOOTSTRAP.max} resamples of each window's return rows: edge reliability, <metric>_p05/_p95, community_stability`,
  },
  {
    name: "seed",
    type: "integer",
    default: String(SEED.default),
    allowed: `${SEED.min}-${SEED.max}; seeds bootstrap's SplitMix64 row draws (replicate b: seed*2^32+b); only with bootstrap`,
  },
  { name: "include_graph", type: "boolean or all", default: "true", allowed: "true false 1 0 all (all: every as-of's edges too)" },
  { name: "sort", type: "metric name", default: "none (request order)", allowed: "one of the requested metrics; descending, nulls last" },
  { name: "format", type: "name", default: "json", allowed: `${FORMATS.join(" ")}; csv/ndjson: long rows date,symbol,metric,value` },
];
