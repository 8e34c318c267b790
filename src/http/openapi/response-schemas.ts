/**
 * The responses in zod: the envelope, the snapshot and rolling payloads, health and errors. They
 * are the OpenAPI document's component schemas (document.ts), and the tests validate real
 * responses against that document, so a payload that changes without its schema fails a test.
 * Objects are strict: a field added to a response but not here is caught the same way.
 */
import { z } from "zod";
import { BOOTSTRAP, CLUSTERS, DETONE, HALFLIFE, KNN_K, LOOKBACK, PERIODS, SEED, STEP } from "../params/params-fields.ts";
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
import type { ErrorCode } from "../http-error.ts";

export const ERROR_CODES = [
  "BAD_REQUEST",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  // The admin API only: the plan exists already, or users are still on it.
  "CONFLICT",
  "RATE_LIMITED",
  "DAILY_QUOTA_EXCEEDED",
  "INTERNAL_ERROR",
  "SERVICE_UNAVAILABLE",
  // Recorded (audit log, access line) when the client left before the answer; no client reads it.
  "CLIENT_CLOSED_REQUEST",
] as const satisfies readonly ErrorCode[];
// Fails to compile when http-error.ts gains a code this list lacks.
const everyCode: Record<ErrorCode, true> = Object.fromEntries(ERROR_CODES.map((c) => [c, true])) as Record<
  (typeof ERROR_CODES)[number],
  true
>;
void everyCode;

/** Components by name: document.ts registers each under this name and refers to it by $ref. */
export const registry = z.registry<{ id: string }>();
const named = <T extends z.ZodType>(id: string, schema: T): T => {
  registry.add(schema, { id });
  return schema;
};

const localTime = z.string().describe("ISO 8601 with the exchange-local offset, e.g. 2025-09-30T00:00:00+05:30");
const metricValue = z.number().nullable().describe("rounded to 6 decimals; null where undefined");
const metricFields = Object.fromEntries(METRICS.map((m) => [m, metricValue.optional()])) as Record<
  (typeof METRICS)[number],
  z.ZodOptional<typeof metricValue>
>;
const community = z.int().nullable().optional().describe("community id; absent with include_graph=false");
const count = z.int().min(0);
const cluster = z
  .int()
  .min(1)
  .nullable()
  .optional()
  .describe("flat cluster label (1-based) at this as-of; only with clusters; null where the symbol is not in the window");
const weight = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .optional()
  .describe("portfolio weight, rounded to 6 decimals; only with weights; null where the symbol is not in the window");
const extras = { cluster, weight };
const percentile = (m: string, p: string) =>
  metricValue
    .optional()
    .describe(`${p}th percentile of ${m} over the bootstrap replicates (numpy's linear interpolation); only with bootstrap`);
const percentileFields = Object.fromEntries(
  METRICS.flatMap((m) => [
    [`${m}_p05`, percentile(m, "5")],
    [`${m}_p95`, percentile(m, "95")],
  ]),
) as Record<string, ReturnType<typeof percentile>>;

export const SectorAgreement = named(
  "SectorAgreement",
  z
    .strictObject({
      ari: z.number().nullable().describe("adjusted Rand index (scikit-learn's adjusted_rand_score), not rounded"),
      nmi: z.number().nullable().describe("normalised mutual information, arithmetic mean (normalized_mutual_info_score), not rounded"),
      labelled: count.describe("nodes with a known sector; ari and nmi are null when fewer than 2"),
    })
    .describe("The graph's communities against its stocks' sectors over the labelled nodes (import-metadata)."),
);
const stockLabels = {
  name: z.string().optional().describe("the stock's name, where known (import-metadata)"),
  sector: z.string().optional().describe("the stock's sector, where known"),
};

export const Edge = named(
  "Edge",
  z.strictObject({
    source: z.string(),
    target: z.string(),
    weight: z.number(),
    corr: z.number(),
    reliability: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("share of the bootstrap replicates whose graph holds this edge; only with bootstrap"),
  }),
);

export const Spectrum = named(
  "Spectrum",
  z
    .strictObject({
      eigenvalues: z.array(z.number().nullable()).describe("descending, rounded to 6 decimals"),
      lambda_plus: z.number().describe("Marchenko-Pastur edge (1 + sqrt(n/L))^2"),
      n_above: count.describe("eigenvalues strictly above lambda_plus"),
      absorption_ratio: z.number().nullable().describe("sum of the top ceil(n/5) eigenvalues / n"),
    })
    .describe("spectrum=true: the eigenvalues of the as-of's correlation matrix before denoise and detone (after shrinkage)"),
);

export const CorrMatrix = named(
  "CorrMatrix",
  z
    .strictObject({
      symbols: z.array(z.string()).describe("the as-of's symbols in stocks order"),
      matrix: z
        .array(z.array(z.number().nullable()))
        .describe("row i, column j: rho between symbols[i] and symbols[j], rounded to 6 decimals"),
    })
    .describe("include_corr=true: the matrix the graph was built from, after every filter"),
);

const communityStability = z
  .number()
  .nullable()
  .optional()
  .describe("mean adjusted Rand index of the bootstrap replicates' communities against these; only with bootstrap");

export const Graph = named(
  "Graph",
  z
    .strictObject({
      asof_date: localTime.optional(),
      nodes: count,
      edges: count,
      method: z.enum(GRAPH_METHODS),
      edge_list: z.array(Edge).optional(),
      communities: z.record(z.string(), z.int()).optional(),
      n_communities: count.optional(),
      modularity: z.number().nullable().optional(),
      sector_agreement: SectorAgreement.optional(),
      community_stability: communityStability,
      spectrum: Spectrum.optional(),
      corr_matrix: CorrMatrix.optional(),
    })
    .describe("With include_graph=false only nodes, edges and method (and spectrum with spectrum=true)."),
);

export const GraphStats = named(
  "GraphStats",
  z.strictObject({
    date: localTime,
    nodes: count,
    edges: count,
    n_communities: count,
    modularity: z.number().nullable(),
    community_stability: communityStability,
    mean_abs_corr: z.number().nullable(),
    tree_length: z.number().nullable(),
    avg_shortest_path: z.number().nullable(),
  }),
);

export const DatedGraph = named(
  "DatedGraph",
  z.strictObject({
    asof_date: localTime,
    nodes: count,
    edges: count,
    method: z.enum(GRAPH_METHODS),
    edge_list: z.array(Edge),
    sector_agreement: SectorAgreement,
    spectrum: Spectrum.optional(),
    corr_matrix: CorrMatrix.optional(),
  }),
);

export const Hierarchy = named(
  "Hierarchy",
  z
    .strictObject({
      asof_date: localTime,
      method: z.enum(HIERARCHIES.filter((h) => h !== "none") as [string, ...string[]]),
      distance: z.enum(HIERARCHY_DISTANCES),
      leaves: z.array(z.string()).describe("leaf id i is the symbol leaves[i]: the symbols in the as-of's window, in stocks order"),
      merges: z
        .array(
          z
            .tuple([
              count.describe("left cluster id"),
              count.describe("right cluster id (> left)"),
              z.number().min(0).nullable().describe("merge height, rounded to 6 decimals; null only if not finite"),
              z.int().min(2).describe("leaves under the new cluster"),
            ])
            // No fifth item: `items: {not: {}}` rather than zod's `items: false`, which linters read as a missing items schema.
            .rest(z.never()),
        )
        .describe(
          "scipy's linkage matrix Z: row r merges left and right into cluster id n + r (n = leaves.length); heights non-decreasing",
        ),
      leaf_order: z.array(z.string()).describe("the dendrogram's leaves left to right (scipy leaves_list)"),
      n_clusters: count.optional().describe("only with clusters"),
      clusters: z.record(z.string(), z.int().min(1)).optional().describe("symbol → flat cluster label (1-based); only with clusters"),
    })
    .describe("Empty lists at an as-of with fewer than 2 usable symbols."),
);

const weightsMethod = z.enum(WEIGHTS.filter((w) => w !== "none") as [string, ...string[]]);

export const SnapshotData = named(
  "SnapshotData",
  z.strictObject({
    type: z.literal("snapshot"),
    asof_date: localTime,
    interval: z.enum(INTERVALS),
    metrics: z.array(z.enum(METRICS)),
    stocks: z.array(z.strictObject({ symbol: z.string(), ...stockLabels, community, ...extras, ...metricFields, ...percentileFields })),
    graph: Graph,
    graph_stats: z.array(GraphStats).optional(),
    hierarchy: Hierarchy.optional().describe("with hierarchy (or weights=hrp)"),
    weights: z.strictObject({ method: weightsMethod }).optional().describe("with weights; each stock carries its weight"),
  }),
);

export const RollingData = named(
  "RollingData",
  z.strictObject({
    type: z.literal("rolling"),
    asof_dates: z.array(localTime),
    interval: z.enum(INTERVALS),
    metrics: z.array(z.enum(METRICS)),
    stocks: z.array(
      z.strictObject({
        symbol: z.string(),
        ...stockLabels,
        community,
        points: z
          .array(z.strictObject({ date: localTime, community, ...extras, ...metricFields, ...percentileFields }))
          .describe("one per as-of; null metrics where the symbol is absent"),
      }),
    ),
    latest_graph: Graph,
    graph_stats: z.array(GraphStats).optional(),
    graphs: z.array(DatedGraph).optional().describe("every as-of's edges; only with include_graph=all"),
    latest_hierarchy: Hierarchy.optional().describe("the latest as-of's; with hierarchy (or weights=hrp)"),
    hierarchies: z.array(Hierarchy).optional().describe("every as-of's, oldest first; with hierarchy and include_graph=all"),
    weights: z
      .strictObject({
        method: weightsMethod,
        turnover: z
          .array(z.number().min(0).max(1).nullable())
          .describe(
            "one-way turnover ½Σ|Δw| from the previous as-of, one per asof_dates entry; null first and next to an as-of without weights",
          ),
      })
      .optional()
      .describe("with weights; each point carries its weight"),
  }),
);

/** meta.params: every effective parameter after defaults. */
export const EffectiveParams = named(
  "EffectiveParams",
  z.strictObject({
    universe: z.string().nullable(),
    symbols: z.array(z.string()).nullable(),
    interval: z.enum(INTERVALS),
    lookback: z.int().min(LOOKBACK.min).max(LOOKBACK.max),
    periods: z.int().min(PERIODS.min).max(PERIODS.max),
    step: z.int().min(STEP.min).max(STEP.max),
    asof: z.iso.date().nullable(),
    start: z.iso.date().nullable(),
    end: z.iso.date().nullable(),
    metrics: z.array(z.enum(METRICS)),
    graph_method: z.enum(GRAPH_METHODS),
    knn_k: z.int().min(KNN_K.min).max(KNN_K.max),
    corr_threshold: z.number().min(0).max(1),
    corr_method: z.enum(CORR_METHODS),
    halflife: z.number().min(HALFLIFE.min).max(HALFLIFE.max),
    shrinkage: z.enum(SHRINKAGES),
    market_mode: z.enum(MARKET_MODES),
    hierarchy: z.enum(HIERARCHIES),
    hierarchy_distance: z.enum(HIERARCHY_DISTANCES),
    clusters: z.int().min(CLUSTERS.min).max(CLUSTERS.max).nullable(),
    weights: z.enum(WEIGHTS),
    denoise: z.enum(DENOISES),
    detone: z.int().min(DETONE.min).max(DETONE.max),
    spectrum: z.boolean(),
    include_corr: z.boolean(),
    bootstrap: z.int().min(BOOTSTRAP.min).max(BOOTSTRAP.max).nullable(),
    seed: z.int().min(SEED.min).max(SEED.max),
    include_graph: z.union([z.boolean(), z.literal("all")]),
    sort: z.enum(METRICS).nullable(),
    format: z.enum(FORMATS),
  }),
);

const dropped = z
  .union([z.array(z.string()), z.record(z.string(), z.array(z.string()))])
  .describe("snapshot: symbols; rolling: as-of → symbols");

export const Diagnostics = named(
  "Diagnostics",
  z.strictObject({
    n_requested: count,
    n_in_graph: count,
    missing_symbols: z.array(z.string()),
    dropped_insufficient_bars: dropped,
    dropped_zero_variance: dropped,
    window_bars: count,
    first_asof: localTime,
    last_asof: localTime,
    data_source: z.string(),
    not_converged: z.array(z.string()).optional(),
    compute_ms: z.number().min(0).optional().describe("live endpoint only"),
    cached: z.boolean().optional().describe("live endpoint only: served from the result cache"),
  }),
);

const generatedAt = z.iso.datetime().describe("UTC, new Date().toISOString() form");
const requestId = z.string().min(1).describe("the X-Request-Id of this response");
const noErrors = z.array(z.never()).max(0);

export const ErrorObject = named("ErrorObject", z.strictObject({ code: z.enum(ERROR_CODES), message: z.string() }));

export const ErrorEnvelope = named(
  "ErrorEnvelope",
  z.strictObject({
    success: z.literal(false),
    errors: z.array(ErrorObject).min(1).describe("one per problem"),
    data: z.null(),
    meta: z.strictObject({
      generated_at: generatedAt,
      request_id: requestId,
      checks: z.strictObject({ database: z.string() }).optional().describe("/health only"),
    }),
  }),
);

export const ChartEnvelope = named(
  "ChartEnvelope",
  z.strictObject({
    success: z.literal(true),
    errors: noErrors,
    data: z.discriminatedUnion("type", [SnapshotData, RollingData]),
    meta: z.strictObject({ generated_at: generatedAt, request_id: requestId, params: EffectiveParams, diagnostics: Diagnostics }),
  }),
);

export const DemoEnvelope = named(
  "DemoEnvelope",
  z.strictObject({
    success: z.literal(true),
    errors: noErrors,
    data: z.discriminatedUnion("type", [SnapshotData, RollingData]),
    meta: z.strictObject({
      generated_at: generatedAt,
      request_id: requestId,
      demo: z.literal(true),
      params: EffectiveParams,
      diagnostics: Diagnostics,
    }),
  }),
);

export const HealthEnvelope = named(
  "HealthEnvelope",
  z.strictObject({
    success: z.literal(true),
    errors: noErrors,
    data: z.strictObject({
      status: z.literal("ok"),
      service: z.literal("graph-stats"),
      version: z.string(),
      commit: z.string().optional(),
      schema: z.string().optional(),
      time: generatedAt,
      uptime_s: count,
      checks: z.strictObject({ database: z.literal("ok") }),
    }),
    meta: z.strictObject({ generated_at: generatedAt, request_id: requestId }),
  }),
);

export const TidyRow = named(
  "TidyRow",
  z
    .strictObject({ date: localTime, symbol: z.string(), metric: z.string(), value: z.number().nullable(), community: z.int().nullable() })
    .describe(
      "One line of format=ndjson (and one row of format=csv). metric is a metric name, <metric>_p05 / <metric>_p95 (with bootstrap), or cluster / weight (with clusters, weights). Graph-statistics and turnover rows have an empty symbol and the statistic (or turnover) as metric; so do spectrum rows (lambda_plus, n_above, absorption_ratio, eigenvalue_<k>). Edge reliability rows (bootstrap) have the edge's source as symbol and reliability:<target> as metric; correlation matrix rows (include_corr) the row's symbol and corr:<column symbol>.",
    ),
);

const intervalList = z.array(z.enum(INTERVALS)).describe("the intervals any member stores, finest first");
const universeFields = {
  name: z.string(),
  intervals: intervalList,
  first_bar: localTime.nullable().describe("the earliest bar of any member at any interval; null when no member has bars"),
  last_bar: localTime.nullable().describe("the latest bar of any member at any interval"),
  data_source: z.enum(["synthetic", "imported"]),
  data_version: count.describe("the data version this answer was read at (also its ETag)"),
};

export const UniverseListing = named(
  "UniverseListing",
  z.strictObject({ ...universeFields, symbols: count.describe("how many members") }).describe("one stored universe"),
);

const perInterval = <T extends z.ZodType>(value: T) => z.partialRecord(z.enum(INTERVALS), value);

export const SymbolCoverage = named(
  "SymbolCoverage",
  z.strictObject({
    first: localTime,
    last: localTime,
    bars: count,
    missing: count.describe("bars of the universe's calendar at this interval between first and last that this symbol lacks"),
  }),
);

export const UniverseMember = named(
  "UniverseMember",
  z.strictObject({
    symbol: z.string(),
    name: z.string().nullable().describe("from import-metadata; null where unknown"),
    sector: z.string().nullable(),
    industry: z.string().nullable(),
    coverage: perInterval(SymbolCoverage).describe("per interval this symbol stores; empty when it has no bars"),
  }),
);

export const UniverseDetail = named(
  "UniverseDetail",
  z.strictObject({
    ...universeFields,
    calendar: perInterval(z.strictObject({ first: localTime, last: localTime, bars: count })).describe(
      "per interval, the union of the members' bar starts: what missing is counted against",
    ),
    symbols: z.array(UniverseMember).describe("the members in universe order"),
  }),
);

const plainMeta = z.strictObject({ generated_at: generatedAt, request_id: requestId });

export const UniverseListEnvelope = named(
  "UniverseListEnvelope",
  z.strictObject({
    success: z.literal(true),
    errors: noErrors,
    data: z.strictObject({ universes: z.array(UniverseListing).describe("alphabetical") }),
    meta: plainMeta,
  }),
);

export const UniverseEnvelope = named(
  "UniverseEnvelope",
  z.strictObject({ success: z.literal(true), errors: noErrors, data: UniverseDetail, meta: plainMeta }),
);
