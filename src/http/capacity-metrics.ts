/**
 * The series the capacity alerts compare (deploy/prometheus/rules.yml): the memory bound RSS is
 * held to, the SQLite filesystem's space, PostgreSQL's connections against max_connections, and
 * the worker restarts of `serve --workers`. Each is registered only where its source exists; a
 * reading that fails is NaN, which no alert's comparison matches (0 free bytes would page).
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** What the capacity gauges read (part of metrics.ts' MetricsSources). */
export interface CapacitySources {
  /** The admitted-work memory bound (--admitted-mb), bytes: what RSS is compared against. */
  admittedLimitBytes?: number;
  /** Space on the SQLite file's filesystem (null: none, as on PostgreSQL or :memory:). */
  dbFilesystem?(): { availBytes: number; sizeBytes: number } | null;
  /** PostgreSQL's max_connections (read at start) and its client connections from every client, now (null: cannot say). */
  dbServerConnections?: { max: number; open(): Promise<number | null> };
  /** Dead workers the supervisor of `serve --workers` has replaced (src/worker-restarts.ts). */
  workerRestarts?(): number;
}

export function registerCapacityGauges(registry: Registry, sources: CapacitySources): void {
  const registers = [registry];
  const limit = sources.admittedLimitBytes;
  if (limit !== undefined) {
    // Summed over serve --workers' workers, as their RSS is (each worker has its own bound).
    new Gauge({
      name: "graphstats_admitted_limit_bytes",
      help: "The admitted-work memory bound (--admitted-mb), bytes",
      aggregator: "sum",
      registers,
    }).set(limit);
  }
  const fs = sources.dbFilesystem;
  if (fs) {
    // Every worker sees the one filesystem: across workers the least free and the one size, not sums.
    const space = (name: string, help: string, aggregator: "min" | "max", pick: (s: { availBytes: number; sizeBytes: number }) => number) =>
      new Gauge({
        name,
        help,
        aggregator,
        registers,
        collect() {
          const read = fs();
          this.set(read ? pick(read) : Number.NaN);
        },
      });
    space(
      "graphstats_db_filesystem_avail_bytes",
      "Bytes an unprivileged process may still write on the SQLite database's filesystem",
      "min",
      (s) => s.availBytes,
    );
    space("graphstats_db_filesystem_size_bytes", "Size of the SQLite database's filesystem, bytes", "max", (s) => s.sizeBytes);
  }
  const conns = sources.dbServerConnections;
  if (conns) {
    // Every worker counts the one server: across workers the largest count, not a sum.
    new Gauge({
      name: "graphstats_db_max_connections",
      help: "PostgreSQL's max_connections, read at start",
      aggregator: "max",
      registers,
    }).set(conns.max);
    new Gauge({
      name: "graphstats_db_server_connections",
      help: "Client connections open on the PostgreSQL server, from every client (pg_stat_activity)",
      aggregator: "max",
      registers,
      async collect() {
        this.set((await conns.open().catch(() => null)) ?? Number.NaN);
      },
    });
  }
  const restarts = sources.workerRestarts;
  if (restarts) {
    // Every worker reports the supervisor's one count: across workers the largest, not a sum.
    new Counter({
      name: "graphstats_worker_restarts_total",
      help: "Dead workers the supervisor of serve --workers has replaced",
      aggregator: "max",
      registers,
      collect() {
        this.reset();
        this.inc(restarts());
      },
    });
  }
}
