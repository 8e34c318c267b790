/**
 * Connects the market layer and the engine for the live endpoint: resolves the universe or the
 * symbol list (404s before anything is metered), then computes — through a result cache bounded in
 * bytes, keyed by the engine's parameters and the data version, so a repeated question costs one lookup.
 * The response format is not an engine parameter: a result is computed once, and another format of
 * it is rendered from its cached JSON on a compute thread and cached beside it.
 */
import { DEFAULT_COST_BUDGET } from "./request-cost.ts";
import { precheck } from "./precheck.ts";
import { Memo } from "../memo.ts";
import { ResultCache } from "./result-cache.ts";
import { ChartError, type ChartParams, type EngineDiagnostics, type StockMetadata } from "../engine/types.ts";
import type { Universe } from "../market/index.ts";
import type { BarCoverage } from "../market/bar-coverage.ts";
import type { MarketStore } from "../market/store.ts";
import { DEFAULT_SERIES_CACHE_BYTES } from "../market/market-store.ts";
import type { LoadPlan } from "../market/series-loader.ts";
import { storeFailure } from "../market/store-errors.ts";
import type { Computed } from "./compute-messages.ts";
import type { ComputePool } from "./compute-pool.ts";
import type { Format, TidyFormat } from "./serialise.ts";
import { SingleFlight } from "./single-flight.ts";
import type { AdmittedWork } from "./admitted-work.ts";

export interface PreparedChart {
  params: ChartParams;
  /** The response's encoding: the HTTP request's, not the engine's. */
  format: Format;
  /** The data version read once per request; it keys every cache below. */
  dataVersion: number;
  symbols: string[];
  missing: string[];
  dataSource: string;
  /** Estimated cost (src/compute/request-cost.ts), within the budget. */
  cost: number;
  /** Estimated peak memory of computing it (src/compute/request-memory.ts). */
  bytes: number;
  /** csv/ndjson of a result already computed: the render job's cost and bytes alone. */
  render: { cost: number; bytes: number } | null;
  /** The buckets its windows cover and the stored interval read: all it loads (series-loader.ts). */
  load: LoadPlan;
  /** The computed result's key: engine parameters, symbols and data version. */
  key: string;
  /** The answer's key in the cache: `key` for JSON, `key` and the format for a rendered body. */
  bodyKey: string;
  /** Whose request it is: the compute pool shares its threads fairly between users. */
  user: string;
}

export interface ChartServiceOptions {
  /** Requests estimated above this cost are refused before admission. */
  costBudget?: number;
  /** Upper bound on the result cache's bytes (cached JSON, rendered csv/ndjson bodies and overhead). */
  cacheBytes?: number;
  /** The bound on admitted-but-unfinished computations; none when absent. */
  admitted?: AdmittedWork;
  /** Upper bound on the process's series caches (--series-cache-mb), split between the places that load series. */
  seriesCacheBytes?: number;
}

export interface ChartOutcome {
  /** The `data` member in the request's format: JSON, or tidy csv/ndjson rows. */
  body: string;
  diagnostics: EngineDiagnostics & {
    n_requested: number;
    missing_symbols: string[];
    data_source: string;
  };
  cached: boolean;
  /** The cached result this answer came from (its identity keys per-result rendering: src/http/live-body.ts). */
  result: object;
}

/** The entry bound is only a backstop; bytes bind first (--cache-mb). */
const CACHE_ENTRIES = 4096;
const DEFAULT_CACHE_BYTES = 128 * 2 ** 20;
/** Per entry beyond the body: the key, the diagnostics object, map and object headers. */
const ENTRY_OVERHEAD = 2048;
/** Prepared requests kept by query string (src/memo.ts): a few thousand distinct questions. */
const PREPARED_MEMO_BYTES = 4 * 2 ** 20;

/**
 * A cached answer: a computed result (its JSON), or a csv/ndjson body rendered from one, which
 * shares the result's diagnostics.
 */
interface CacheEntry {
  key: string;
  computed: Computed;
  tidy: boolean;
}

/** A computation's outcome: the result, and the tidy body its first caller asked for. */
interface Fresh {
  json: Computed;
  tidy: { format: TidyFormat; computed: Computed } | null;
}

/**
 * What an entry holds in memory: its strings (one byte per ASCII character in JavaScriptCore), a
 * JSON body's encoded bytes made at its first answer (src/http/live-body.ts), plus overhead.
 */
function entryBytes(e: CacheEntry): number {
  return (e.tidy ? 1 : 2) * e.computed.body.length + e.key.length + JSON.stringify(e.computed.diagnostics).length + ENTRY_OVERHEAD;
}

function tidyKey(key: string, format: TidyFormat): string {
  return `${key}|${format}`;
}

/**
 * A request's share of the bound on admitted work. `inHand`: its answer was in the result cache
 * when reserved, and is held from then on (no share taken), so the request is answered from it
 * even if the cache evicts it meanwhile (the meter records such an answer at admission).
 */
export interface Reservation {
  release: () => void;
  inHand?: Computed;
}

export class ChartService {
  private readonly cache: ResultCache<CacheEntry>;
  /** Computations under way by result key: a request for the same result, in any format, waits for the same one. */
  private readonly inFlight = new SingleFlight<string, Fresh>();
  /** Render jobs under way by body key. */
  private readonly renders = new SingleFlight<string, Computed>();

  private knownCache: { version: number; symbols: Set<string>; synthetic: Set<string> } | null = null;
  /**
   * Prepared requests by the caller's query string, each at the data version it was prepared at:
   * a repeated question skips resolving, the calendar walk and the key (about 60 µs of each cached
   * live request, bench/live-cpu.ts).
   */
  private readonly prepared = new Memo<{ version: number; chart: Omit<PreparedChart, "user"> }>(
    PREPARED_MEMO_BYTES,
    (e) => 2 * e.chart.key.length + 16 * e.chart.symbols.length + 512,
  );

  /**
   * pool: the compute threads. With a SQLite file they load the series from it themselves; with
   * PostgreSQL, an in-memory database or no thread running, the series are loaded here through
   * the store and handed over. Either way only the bars under the request's windows are read.
   */
  constructor(
    private readonly store: MarketStore,
    private readonly pool: ComputePool,
    private readonly options: ChartServiceOptions = {},
  ) {
    this.cache = new ResultCache(CACHE_ENTRIES, {
      maxSize: options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      sizeOf: entryBytes,
    });
    // Series are loaded either by every compute thread (a SQLite file) or on the event loop: the
    // bound is split between the places that load, so the process as a whole stays inside it.
    const bound = options.seriesCacheBytes ?? DEFAULT_SERIES_CACHE_BYTES;
    this.threadsLoad = store.threadPath !== null && pool.size > 0;
    this.threadShare = this.threadsLoad ? Math.floor(bound / pool.size) : 0;
    store.limitSeriesCache(this.threadsLoad ? 0 : bound);
  }

  private readonly threadsLoad: boolean;
  private readonly threadShare: number;

  /** Bytes the result cache holds (its estimate; for /metrics and tests). */
  cacheBytes(): number {
    return this.cache.totalSize;
  }

  /** Bytes the series caches hold: the threads' (as each last said) and the event loop's. */
  seriesCacheBytes(): number {
    return this.pool.seriesCacheBytes() + this.store.seriesCacheBytes();
  }

  private coverage: { version: number; meta: Promise<BarCoverage> } | null = null;

  /** Bar metadata (which bars exist, no prices) at this data version; rebuilt after an import. */
  private barCoverage(version: number): Promise<BarCoverage> {
    if (this.coverage?.version !== version) {
      const meta = this.store.barCoverage(version);
      this.coverage = { version, meta };
      // A failed read (database down) is not kept: the next request reads again.
      meta.catch(() => {
        if (this.coverage?.meta === meta) this.coverage = null;
      });
    }
    return this.coverage.meta;
  }

  /** Every symbol with bars, and those of synthetic universes; re-read only when an import changed the data version. */
  private async known(version: number): Promise<{ symbols: Set<string>; synthetic: Set<string> }> {
    if (!this.knownCache || this.knownCache.version !== version) {
      const synthetic = new Set<string>();
      for (const name of await this.store.listUniverses()) {
        const u = await this.store.getUniverse(name);
        if (u?.source === "synthetic") for (const s of u.symbols) synthetic.add(s);
      }
      this.knownCache = { version, symbols: new Set(await this.store.knownSymbols()), synthetic };
    }
    return this.knownCache;
  }

  private universes: { version: number; byName: Map<string, Universe | null> } | null = null;

  /** A universe by name, re-read only when an import changed the data version (bounded by the universes that exist). */
  private async universe(name: string, version: number): Promise<Universe | null> {
    if (!this.universes || this.universes.version !== version) this.universes = { version, byName: new Map() };
    const { byName } = this.universes;
    if (!byName.has(name)) {
      const u = await this.store.getUniverse(name);
      if (!u) return null; // unknown names are not cached, so the map stays bounded
      byName.set(name, u);
    }
    return byName.get(name)!;
  }

  /**
   * Resolves what to compute and decides, from metadata only, everything the data can refuse
   * (docs/api.md § Refused before metering): an unknown universe, too few known symbols, history,
   * size and cost, each a ChartError kind (src/http/http-error.ts gives the status). Nothing here
   * loads a series, so a refusal costs about as little as a 400.
   */
  async prepare(params: ChartParams, format: Format = "json", user = "", query?: string): Promise<PreparedChart> {
    try {
      const dataVersion = await this.store.dataVersion();
      const known = query === undefined ? undefined : this.prepared.get(query);
      if (known?.version === dataVersion) return { ...known.chart, user };
      const prepared = await this.resolve(params, dataVersion);
      const meta = await this.barCoverage(dataVersion);
      await meta.ready(prepared.symbols, params.interval);
      const { cost, bytes, render, load } = precheck(
        meta,
        prepared.symbols,
        params,
        this.options.costBudget ?? DEFAULT_COST_BUDGET,
        format,
      );
      const key = `${dataVersion}|${prepared.symbols.join(",")}|${JSON.stringify({ ...params, universe: null, symbols: null })}`;
      const bodyKey = format === "json" ? key : tidyKey(key, format);
      const chart = { ...prepared, format, cost, bytes, render, load, key, bodyKey };
      if (query !== undefined) this.prepared.set(query, { version: dataVersion, chart });
      return { ...chart, user };
    } catch (err) {
      throw storeFailure(err);
    }
  }

  /**
   * Reserves the request's share of the bound on admitted work: its release, or, when the bound is
   * full, what the refusal says (seconds to wait, computations under way). An answer already in the
   * result cache takes no share: it costs a lookup; another format of a cached result takes its
   * render job's share.
   */
  reserve(prepared: PreparedChart): Reservation | { full: { retryAfterSeconds: number; jobs: number } } {
    const inHand = this.cache.get(prepared.bodyKey)?.computed;
    if (inHand) return { release: () => {}, inHand };
    const admitted = this.options.admitted;
    if (!admitted) return { release: () => {} };
    const { cost, bytes } = prepared.render && this.cache.has(prepared.key) ? prepared.render : prepared;
    const release = admitted.reserve(cost, bytes);
    return release ? { release } : { full: { retryAfterSeconds: admitted.retryAfterSeconds(), jobs: admitted.inUse().jobs } };
  }

  private async resolve(
    params: ChartParams,
    dataVersion: number,
  ): Promise<Omit<PreparedChart, "format" | "cost" | "bytes" | "render" | "load" | "key" | "bodyKey" | "user">> {
    if (params.symbols) {
      const { symbols: known, synthetic } = await this.known(dataVersion);
      const missing = params.symbols.filter((s) => !known.has(s));
      const symbols = params.symbols.filter((s) => known.has(s));
      if (symbols.length < 2) {
        throw new ChartError(
          "unknown-symbols",
          `need at least 2 known symbols, found ${symbols.length} of ${params.symbols.length}` +
            (missing.length ? `; unknown: ${missing.slice(0, 20).join(", ")}` : ""),
        );
      }
      const nSynthetic = symbols.filter((s) => synthetic.has(s)).length;
      const dataSource = nSynthetic === symbols.length ? "synthetic" : nSynthetic === 0 ? "imported" : "mixed";
      return { params, dataVersion, symbols, missing, dataSource };
    }
    const name = params.universe as string;
    const universe = await this.universe(name, dataVersion);
    if (!universe) {
      const known = await this.store.listUniverses();
      throw new ChartError(
        "unknown-universe",
        `unknown universe '${name}'; known universes: ${known.length ? known.join(", ") : "none (import one first)"}`,
      );
    }
    if (universe.symbols.length < 2) {
      throw new ChartError("too-few-symbols", `universe '${name}' has ${universe.symbols.length} symbol(s); at least 2 are needed`);
    }
    return { params, dataVersion, symbols: universe.symbols, missing: [], dataSource: universe.source };
  }

  /**
   * Computes (or returns the cached) chart data. Rejects with ChartError for requests the data cannot
   * serve, and with the signal's reason once `signal` aborts (the caller went away); the computation
   * is cancelled when no other caller waits for the same one.
   */
  async compute(prepared: PreparedChart, signal?: AbortSignal, inHand?: Computed): Promise<ChartOutcome> {
    const { params, symbols, missing, dataSource } = prepared;
    let hit = inHand ?? this.cache.get(prepared.bodyKey)?.computed;
    const cached = hit !== undefined;
    if (!hit) hit = await this.obtain(prepared, signal);
    return {
      body: hit.body,
      diagnostics: {
        n_requested: params.symbols ? params.symbols.length : symbols.length,
        missing_symbols: missing,
        data_source: dataSource,
        ...hit.diagnostics,
      },
      cached,
      result: hit,
    };
  }

  /** The answer not in the cache: the result computed (or joined), then rendered when its format is another. */
  private async obtain(prepared: PreparedChart, signal?: AbortSignal): Promise<Computed> {
    const { key, format } = prepared;
    let json = this.cache.get(key)?.computed;
    if (!json) {
      const fresh = await this.inFlight.run(
        key,
        (s) => this.run(prepared, s),
        (f) => this.keep(key, f),
        signal,
      );
      if (format === "json") return fresh.json;
      if (fresh.tidy?.format === format) return fresh.tidy.computed;
      json = fresh.json;
    }
    if (format === "json") return json;
    const result = json;
    return this.renders.run(
      prepared.bodyKey,
      async (s) => ({ ...result, body: await this.pool.render(result.body, format, prepared.user, s) }),
      (c) => this.cache.set(prepared.bodyKey, { key: prepared.bodyKey, computed: c, tidy: true }),
      signal,
    );
  }

  /** The engine on the request's series; a csv/ndjson request's rows are rendered with it, on its thread. */
  private async run(prepared: PreparedChart, signal: AbortSignal): Promise<Fresh> {
    const { params, symbols, user, format, load } = prepared;
    const source = this.threadsLoad
      ? { db: this.store.threadPath!, symbols, plan: load, cacheBytes: this.threadShare }
      : { input: await this.store.loadPlanned(symbols, params.interval, load).catch((e) => Promise.reject(storeFailure(e))) };
    const render = format === "json" ? undefined : format;
    const stock_metadata = await this.metadataOf(symbols);
    const engineParams = stock_metadata ? { ...params, stock_metadata } : { ...params };
    const { tidy, ...json } = await this.pool.compute(source, engineParams, user, signal, prepared.cost, render);
    return { json, tidy: render && tidy !== undefined ? { format: render, computed: { ...json, body: tidy } } : null };
  }

  /** The symbols' names and sectors where known, for the engine (undefined when none has any): read once per computation, not per answer. */
  private async metadataOf(symbols: string[]): Promise<Record<string, StockMetadata> | undefined> {
    const found = await this.store.symbolMetadata(symbols).catch((e) => Promise.reject(storeFailure(e)));
    if (found.size === 0) return undefined;
    const out: Record<string, StockMetadata> = {};
    for (const [s, m] of found) out[s] = { name: m.name, sector: m.sector };
    return out;
  }

  private keep(key: string, fresh: Fresh): void {
    this.cache.set(key, { key, computed: fresh.json, tidy: false });
    if (fresh.tidy) {
      const bodyKey = tidyKey(key, fresh.tidy.format);
      this.cache.set(bodyKey, { key: bodyKey, computed: fresh.tidy.computed, tidy: true });
    }
  }
}
