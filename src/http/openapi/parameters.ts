/**
 * The live endpoint's query parameters as the OpenAPI document shows them: their wire form
 * (strings in a query) with the bounds, allowed values and defaults of params/params-fields.ts,
 * and PARAM_DOCS's words. parameters.test.ts checks each against FIELDS, the schemas that
 * actually validate requests: the bounds accepted, one past them refused, every value allowed.
 */
import { z } from "zod";
import {
  BOOTSTRAP,
  CLUSTERS,
  DETONE,
  FIELDS,
  HALFLIFE,
  KNN_K,
  LOOKBACK,
  PARAM_DOCS,
  PERIODS,
  SEED,
  STEP,
  SYMBOL_COUNT,
  UNIVERSE_RE,
  type ParamName,
} from "../params/params-fields.ts";
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
} from "../../engine/types.ts";
import { FORMATS } from "../../compute/serialise.ts";

const int = (b: { min: number; max: number; default: number }) => z.int().min(b.min).max(b.max).default(b.default);
const commaList = (pattern: string) => z.string().regex(new RegExp(pattern));

/** Wire schema per parameter; defaults are FIELDS' defaults where they are constants. */
export const PARAM_SCHEMAS: Record<ParamName, z.ZodType> = {
  universe: z.string().regex(UNIVERSE_RE),
  symbols: commaList(`^[A-Za-z0-9&._-]{1,32}( *, *[A-Za-z0-9&._-]{1,32}){${SYMBOL_COUNT.min - 1},${SYMBOL_COUNT.max - 1}}$`),
  interval: z.enum(INTERVALS).default(FIELDS.interval.default),
  lookback: int(LOOKBACK),
  periods: int(PERIODS),
  step: int(STEP),
  asof: z.iso.date(),
  start: z.iso.date(),
  end: z.iso.date(),
  metrics: commaList(`^(${METRICS.join("|")})( *, *(${METRICS.join("|")}))*$`).default(FIELDS.metrics.default.join(",")),
  graph_method: z.enum(GRAPH_METHODS).default(FIELDS.graph_method.default),
  knn_k: int(KNN_K),
  corr_threshold: z.number().min(0).max(1).default(FIELDS.corr_threshold.default),
  corr_method: z.enum(CORR_METHODS).default(FIELDS.corr_method.default),
  halflife: z.number().min(HALFLIFE.min).max(HALFLIFE.max).default(FIELDS.halflife.default),
  shrinkage: z.enum(SHRINKAGES).default(FIELDS.shrinkage.default),
  market_mode: z.enum(MARKET_MODES).default(FIELDS.market_mode.default),
  hierarchy: z.enum(HIERARCHIES).default(FIELDS.hierarchy.default),
  hierarchy_distance: z.enum(HIERARCHY_DISTANCES).default(FIELDS.hierarchy_distance.default),
  clusters: z.int().min(CLUSTERS.min).max(CLUSTERS.max),
  weights: z.enum(WEIGHTS).default(FIELDS.weights.default),
  denoise: z.enum(DENOISES).default(FIELDS.denoise.default),
  detone: int(DETONE),
  spectrum: z.enum(["true", "false", "1", "0"]).default("false"),
  include_corr: z.enum(["true", "false", "1", "0"]).default("false"),
  bootstrap: z.int().min(BOOTSTRAP.min).max(BOOTSTRAP.max),
  seed: int(SEED),
  include_graph: z.enum(["true", "false", "1", "0", "all"]).default(String(FIELDS.include_graph.default) as "true"),
  sort: z.enum(METRICS),
  format: z.enum(FORMATS).default(FIELDS.format.default),
};

/**
 * Examples that name data a fresh install has (the synthetic sample), so a client or a fuzzer
 * driven by the document reaches real answers, not only "unknown universe".
 */
const EXAMPLES: Partial<Record<ParamName, string>> = { universe: "sample", symbols: "ALPHABANK,BETABANK,CODEWAVE" };

/** OpenAPI parameter objects for GET /v1/graph-stats/chart, in PARAM_DOCS order. */
export function chartParameters(): object[] {
  return PARAM_DOCS.map((doc) => {
    const { $schema: _, ...schema } = z.toJSONSchema(PARAM_SCHEMAS[doc.name], { io: "input" }) as Record<string, unknown>;
    const example = EXAMPLES[doc.name];
    return {
      name: doc.name,
      in: "query",
      required: false,
      description: `${doc.type}; default ${doc.default}; allowed: ${doc.allowed}.`,
      schema,
      ...(example !== undefined ? { example } : {}),
    };
  });
}
