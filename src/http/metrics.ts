/**
 * Prometheus metrics at /metrics (README.md § Operations) with prom-client: requests by route and
 * status, 503s by reason, meter decisions by outcome, compute time, tokens generated, and gauges
 * read when scraped (compute queue depth, result-cache and series-cache bytes, database connections in use, database
 * up, meter writes failing), plus the process's CPU and memory. docs/deploy.md § 9. Monitoring has the
 * alerts over them (deploy/prometheus/rules.yml).
 */
import {
  type Aggregator,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from "prom-client";
import { addressList } from "../address-list.ts";
import type { DenialCode } from "../metering/windows.ts";
import { type CapacitySources, registerCapacityGauges } from "./capacity-metrics.ts";
import { UNAVAILABLE_REASONS, type UnavailableReason } from "./unavailable-reason.ts";

/** The meter's outcomes: admitted, or a denial's code. */
const OUTCOMES: readonly ("admitted" | DenialCode)[] = ["admitted", "RATE_LIMITED", "DAILY_QUOTA_EXCEEDED"];

export interface MetricsSources extends CapacitySources {
  computeQueueDepth(): number;
  cacheBytes(): number;
  /** Bytes held by the series caches (the compute threads' and the event loop's; src/market/series-cache.ts). */
  seriesCacheBytes?(): number;
  /** Connections busy with a query (SQLite: the one connection, 0 or 1). */
  dbConnectionsInUse(): number;
  /** Estimated cost (ms of one core) and bytes of the live computations admitted and not yet answered. */
  admittedCostMs?(): number;
  admittedBytes?(): number;
  /** The database answers its liveness probe (the check /health and every live request make). */
  databaseUp?(): boolean | Promise<boolean>;
  /** The meter's last write was refused by the storage (full disk…): cleared by the next write that succeeds. */
  meterWriteFailing?(): boolean;
  /** The newest bar (UTC ms) of each universe at each interval it stores (src/market/catalogue-cache.ts). */
  lastBars?(): Promise<{ universe: string; interval: string; ts: number }[]>;
  /** Compute-pool jobs started so far: engine runs, and renders of a cached result in another format. */
  computeJobs?(): { engine: number; render: number };
}

export interface Metrics {
  request(route: string, status: number): void;
  /** "admitted", or the refusal code (RATE_LIMITED, DAILY_QUOTA_EXCEEDED). */
  decision(outcome: string): void;
  /** A 503 answered, counted once per response (src/http/app.ts). */
  unavailable(reason: UnavailableReason): void;
  computed(ms: number): void;
  /** A token minted in the dashboard (src/dashboard/endpoints/generate-token.ts). */
  tokenGenerated(): void;
  render(): Promise<string>;
  /** The registry as JSON: what a worker hands its supervisor to be summed with the others' (worker-metrics.ts). */
  json(): Promise<MetricObjectWithValues<MetricValue<string>>[]>;
  contentType: string;
}

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "graphstats_" });
  // Requests are counted in plain numbers and handed to prom-client when scraped: Counter.inc
  // hashes its labels on every call: 0.58 µs in-process against 0.02 µs, ~4% of /health's CPU under wrk.
  const counts = new Map<string, Map<number, { n: number }>>();
  new Counter({
    name: "graphstats_http_requests_total",
    help: "HTTP requests answered, by route and status",
    labelNames: ["route", "status"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [route, byStatus] of counts) for (const [status, c] of byStatus) this.inc({ route, status: String(status) }, c.n);
    },
  });
  const decisions = new Counter({
    name: "graphstats_meter_decisions_total",
    help: "Live requests admitted or refused by the meter, by outcome",
    labelNames: ["outcome"],
    registers: [registry],
  });
  // From 0, so the quota-spike alert's rate() counts the first refusal rather than starting a series at it.
  for (const outcome of OUTCOMES) decisions.labels(outcome).inc(0);
  const unavailable = new Counter({
    name: "graphstats_unavailable_total",
    help: "503 answers, by reason",
    labelNames: ["reason"],
    registers: [registry],
  });
  // Every reason from the start at 0, so rate() sees the first 503 of a reason rather than a new series.
  for (const reason of UNAVAILABLE_REASONS) unavailable.labels(reason).inc(0);
  const tokens = new Counter({
    name: "graphstats_tokens_generated_total",
    help: "API tokens generated in the dashboard",
    registers: [registry],
  });
  const compute = new Histogram({
    name: "graphstats_compute_seconds",
    help: "Time to obtain a live result (cache hits included), seconds",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const jobs = sources.computeJobs;
  if (jobs) {
    // Read from the pool when scraped: engine runs against requests tell how often the cache answers.
    new Counter({
      name: "graphstats_compute_jobs_total",
      help: "Compute-pool jobs started: engine runs (kind=engine) and renders of a cached result in another format (kind=render)",
      labelNames: ["kind"],
      registers: [registry],
      collect() {
        this.reset();
        const { engine, render } = jobs();
        this.inc({ kind: "engine" }, engine);
        this.inc({ kind: "render" }, render);
      },
    });
  }
  const lastBars = sources.lastBars;
  if (lastBars) {
    // From the catalogue held per data version: a scrape reads the version, not the bars.
    new Gauge({
      name: "graphstats_universe_last_bar_timestamp_seconds",
      help: "Start of the newest bar of each universe at each interval it stores, Unix seconds (freshness)",
      labelNames: ["universe", "interval"],
      // Across workers the stalest: what every worker serves at least.
      aggregator: "min",
      registers: [registry],
      async collect() {
        this.reset();
        for (const b of await lastBars()) this.set({ universe: b.universe, interval: b.interval }, b.ts / 1000);
      },
    });
  }
  // `aggregator`: how serve --workers N combines the workers' values (worker-metrics.ts); prom-client sums by default.
  const gauge = (name: string, help: string, read: () => number | Promise<number>, aggregator: Aggregator = "sum") =>
    new Gauge({
      name,
      help,
      aggregator,
      registers: [registry],
      async collect() {
        this.set(await read());
      },
    });
  gauge("graphstats_compute_queue_depth", "Live computations waiting for a compute thread", sources.computeQueueDepth);
  gauge("graphstats_result_cache_bytes", "Bytes held by the result cache", sources.cacheBytes);
  if (sources.seriesCacheBytes)
    gauge("graphstats_series_cache_bytes", "Bytes held by the series caches (loaded bars)", sources.seriesCacheBytes);
  gauge("graphstats_db_connections_in_use", "Database connections busy with a query", sources.dbConnectionsInUse);
  gauge(
    "graphstats_admitted_cost_ms",
    "Estimated cost (ms of one core) of the live computations admitted and not yet answered",
    sources.admittedCostMs ?? (() => 0),
    "max", // the budget is each worker's own (--admitted-cost): the fullest worker is the one near it
  );
  gauge(
    "graphstats_admitted_bytes",
    "Estimated memory of the live computations admitted and not yet answered",
    sources.admittedBytes ?? (() => 0),
    "max",
  );
  const databaseUp = sources.databaseUp;
  if (databaseUp) {
    // A probe that throws is a database that does not answer, as /health reads it.
    gauge(
      "graphstats_database_up",
      "1 when the database answers its liveness probe, else 0",
      async () =>
        (await Promise.resolve()
          .then(databaseUp)
          .catch(() => false))
          ? 1
          : 0,
      "min", // 0 when any worker cannot reach it
    );
  }
  const writeFailing = sources.meterWriteFailing;
  if (writeFailing) {
    gauge(
      "graphstats_meter_write_failing",
      "1 while the meter's writes are refused by the storage (full disk…), else 0",
      () => (writeFailing() ? 1 : 0),
      "max",
    );
  }
  registerCapacityGauges(registry, sources);

  return {
    request(route, status) {
      let byStatus = counts.get(route);
      if (!byStatus) counts.set(route, (byStatus = new Map()));
      const c = byStatus.get(status);
      if (c) c.n++;
      else byStatus.set(status, { n: 1 });
    },
    decision(outcome) {
      decisions.labels(outcome).inc();
    },
    unavailable(reason) {
      unavailable.labels(reason).inc();
    },
    computed(ms) {
      compute.observe(ms / 1000);
    },
    tokenGenerated() {
      tokens.inc();
    },
    render: () => registry.metrics(),
    json: () => registry.getMetricsAsJSON(),
    contentType: registry.contentType,
  };
}

/**
 * Who may read /metrics: a list of addresses and CIDR blocks (`127.0.0.1,10.0.0.0/8,::1`), or `*`
 * for anyone. The default is loopback only: metrics describe the service's load to whoever reads them.
 */
export function metricsAllowList(entries: string[]): (ip: string | null) => boolean {
  if (entries.includes("*")) return () => true;
  const allowed = addressList(entries, "metrics allow list");
  return (ip) => ip !== null && allowed(ip);
}
