/**
 * A real Prometheus scrapes a real server every second with deploy/prometheus/rules.yml loaded:
 * our series are ingested under the names the rules use, the recording rules evaluate to values,
 * and an alert turns pending when the database stops answering (its 503s counted by reason).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { startHarness, type Harness } from "../support/http/harness.ts";
import { freePort } from "../support/free-port.ts";
import { PROMETHEUS, PROMETHEUS_MISSING, RULES } from "../support/prometheus.ts";

const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** One instant query's samples as `labels → value`. */
async function query(api: string, expr: string): Promise<{ metric: Record<string, string>; value: number }[]> {
  const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const j = (await res.json()) as any;
  if (j.status !== "success") throw new Error(`${expr}: ${JSON.stringify(j)}`);
  return j.data.result.map((r: any) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/** Polls until `check` holds (it returns a description of what it still waits for, or null). */
async function until(what: string, check: () => Promise<string | null>, deadline: number): Promise<void> {
  let last: string | null = "not checked";
  while (Date.now() < deadline) {
    last = await check().catch((e: Error) => e.message);
    if (last === null) return;
    await Bun.sleep(100);
  }
  throw new Error(`${what}: still ${last}`);
}

describe.skipIf(!PROMETHEUS)(
  PROMETHEUS ? "a real Prometheus scraping the server" : `a real Prometheus scraping the server (${PROMETHEUS_MISSING})`,
  () => {
    test("series ingested, recording rules evaluated, the database-down alert pending with its 503s by reason", async () => {
      const deadline = Date.now() + 20_000;
      let dbUp = true;
      const h: Harness = await startHarness({}, { override: { checkDatabase: () => dbUp } });
      cleanup.push(() => h.stop());
      const token = await h.token("scraped");
      expect((await h.get("/v1/graph-stats/chart?lookback=30", { token })).status).toBe(200);

      const dir = mkdtempSync(join(tmpdir(), "gs-prometheus-"));
      cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
      const port = freePort();
      writeFileSync(
        join(dir, "prometheus.yml"),
        [
          "global: { scrape_interval: 250ms, evaluation_interval: 250ms }",
          `rule_files: [${JSON.stringify(RULES)}]`,
          "scrape_configs:",
          "  - job_name: graph-stats",
          `    static_configs: [{ targets: ["127.0.0.1:${h.server.port}"] }]`,
          "",
        ].join("\n"),
      );
      const prom: Subprocess = Bun.spawn(
        [
          PROMETHEUS!,
          `--config.file=${join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
          "--log.level=warn",
        ],
        { stdout: "ignore", stderr: "pipe" },
      );
      cleanup.push(async () => {
        prom.kill("SIGTERM");
        await prom.exited;
      });
      const api = `http://127.0.0.1:${port}`;

      await until(
        "the target scraped and up",
        async () => {
          const up = await query(api, 'up{job="graph-stats"}');
          return up[0]?.value === 1 ? null : `up = ${JSON.stringify(up)}`;
        },
        deadline,
      );
      // The series the rules read, as the server exports them.
      const chart200 = await query(api, 'graphstats_http_requests_total{route="/v1/graph-stats/chart",status="200"}');
      expect(chart200.map((s) => s.value)).toEqual([1]);
      expect((await query(api, "graphstats_compute_seconds_count")).map((s) => s.value)).toEqual([1]);
      expect((await query(api, "graphstats_database_up")).map((s) => s.value)).toEqual([1]);
      expect((await query(api, "graphstats_meter_write_failing")).map((s) => s.value)).toEqual([0]);
      expect((await query(api, "graphstats_tokens_generated_total")).map((s) => s.value)).toEqual([0]);
      expect((await query(api, "graphstats_compute_queue_depth")).length).toBe(1);
      // The capacity alerts' ratios, as Prometheus computes them from the scrape.
      expect((await query(api, "graphstats_admitted_limit_bytes")).map((s) => s.value)).toEqual([h.config.admittedMb * 2 ** 20]);
      const free = await query(api, "graphstats_db_filesystem_avail_bytes / graphstats_db_filesystem_size_bytes");
      expect(free.length === 1 && free[0]!.value > 0 && free[0]!.value <= 1).toBe(true);
      const rss = await query(api, "graphstats_process_resident_memory_bytes / graphstats_admitted_limit_bytes");
      expect(rss.length === 1 && rss[0]!.value > 0).toBe(true);
      expect((await query(api, 'absent(up{job="graph-stats"} == 1)')).length).toBe(0);
      expect((await query(api, "graphstats_unavailable_total")).map((s) => s.metric.reason).sort()).toEqual([
        "database_busy",
        "database_unreachable",
        "database_write_failing",
        "market_unavailable",
        "other",
        "shutting_down",
        "work_bound_full",
      ]);

      // Recording rules need two scrapes for a rate; then they hold values.
      await until(
        "the request-rate recording rule",
        async () => {
          const r = await query(api, "job:graphstats_http_requests:rate5m");
          return r[0] && r[0].value > 0 && r[0].metric.job === "graph-stats" ? null : JSON.stringify(r);
        },
        deadline,
      );
      const p99 = await query(api, "job:graphstats_compute_seconds:p99_5m");
      expect(p99.length).toBe(1);
      expect((await query(api, "instance:graphstats_compute_queue_depth:min10m")).map((s) => s.value)).toEqual([0]);

      // Every rule evaluates without error against the real series.
      const rules = (await (await fetch(`${api}/api/v1/rules`)).json()) as any;
      const all = rules.data.groups.flatMap((g: any) => g.rules);
      // As many as deploy/prometheus/ declares: none failed to load.
      expect(all.length).toBe(readFileSync(RULES, "utf8").match(/^\s+- (alert|record):/gm)!.length);
      expect(all.filter((r: any) => r.health !== "ok").map((r: any) => `${r.name}: ${r.lastError}`)).toEqual([]);

      // The database stops answering: live requests and /health get 503, counted by reason, and the alert goes pending.
      dbUp = false;
      expect((await h.get("/v1/graph-stats/chart?lookback=31", { token })).status).toBe(503);
      expect((await h.get("/health")).status).toBe(503);
      await until(
        "GraphStatsDatabaseDown pending",
        async () => {
          const a = await query(api, 'ALERTS{alertname="GraphStatsDatabaseDown"}');
          return a[0]?.metric.alertstate === "pending" ? null : JSON.stringify(a);
        },
        deadline,
      );
      await until(
        "the 503s by reason",
        async () => {
          const r = await query(api, 'job_reason:graphstats_unavailable:rate5m{reason="database_unreachable"} > 0');
          return r.length === 1 ? null : JSON.stringify(r);
        },
        deadline,
      );
      const unavailable = await query(api, 'graphstats_unavailable_total{reason="database_unreachable"}');
      expect(unavailable.map((s) => s.value)).toEqual([2]);
      const firing = await query(api, 'ALERTS{alertstate="firing"}');
      expect(firing).toEqual([]);
    }, 30_000);
  },
);
