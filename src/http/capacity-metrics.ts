/**
 * The series the capacity alerts compare (deploy/prometheus/rules.yml): the memory bound RSS is
 * held to, the SQLite filesystem's space, PostgreSQL's connections against max_connections, and
 * the worker restarts of `serve --workers`. Each is registered only where its source exists; a
 * reading that fails is NaN, which no alert's comparison matches (0 free bytes would page).
 */
import { Counter, Gauge, type Registry } from "prom-client";
import type { MetricsSources } from "./metrics.ts";

export function registerCapacityGauges(registry: Registry, sources: MetricsSources): void {
  const registers = [registry];
  const limit = sources.admittedLimitBytes;
  if (limit !== undefined) {
    new Gauge({ name: "graphstats_admitted_limit_bytes", help: "The admitted-work memory bound (--admitted-mb), bytes", registers }).set(
      limit,
    );
  }
  const fs = sources.dbFilesystem;
  if (fs) {
    const space = (name: string, help: string, pick: (s: { availBytes: number; sizeBytes: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const read = fs();
          this.set(read ? pick(read) : Number.NaN);
        },
      });
    space(
      "graphstats_db_filesystem_avail_bytes",
      "Bytes an unprivileged process may still write on the SQLite database's filesystem",
      (s) => s.availBytes,
    );
    space("graphstats_db_filesystem_size_bytes", "Size of the SQLite database's filesystem, bytes", (s) => s.sizeBytes);
  }
  const conns = sources.dbServerConnections;
  if (conns) {
    new Gauge({ name: "graphstats_db_max_connections", help: "PostgreSQL's max_connections, read at start", registers }).set(conns.max);
    new Gauge({
      name: "graphstats_db_server_connections",
      help: "Client connections open on the PostgreSQL server, from every client (pg_stat_activity)",
      registers,
      async collect() {
        this.set((await conns.open().catch(() => null)) ?? Number.NaN);
      },
    });
  }
  const restarts = sources.workerRestarts;
  if (restarts !== undefined) {
    new Counter({
      name: "graphstats_worker_restarts_total",
      help: "Times serve --workers had replaced this worker's slot (a dead worker) before starting this worker",
      registers,
    }).inc(restarts);
  }
}
