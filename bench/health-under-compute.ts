/**
 * /health latency while the live endpoint computes: `clients` loops send heavy, never-cached
 * requests (load/lib/heavy.js, as load/compute.js does) and two loops poll /health every 50 ms.
 * Run against a server with compute threads and one with --compute-threads 0 to compare.
 */
import { DEFAULT_FIRST_ASOF, DEFAULT_HEAVY_QUERY, DEFAULT_LAST_ASOF, dateOption, heavyQuery } from "../load/lib/heavy.js";

export interface HealthUnderCompute {
  health: { n: number; p50: number; p95: number; p99: number; max: number };
  heavyComputed: number;
  heavyComputeMsP50: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;

export async function healthUnderCompute(base: string, tokens: string[], seconds: number, clients = 4): Promise<HealthUnderCompute> {
  const opts = {
    baseQuery: DEFAULT_HEAVY_QUERY,
    firstMs: dateOption("FIRST_ASOF", DEFAULT_FIRST_ASOF),
    lastMs: dateOption("LAST_ASOF", DEFAULT_LAST_ASOF),
  };
  let n = 0;
  let stop = false;
  const computeMs: number[] = [];
  const heavy = async () => {
    while (!stop) {
      const k = n++;
      const res = await fetch(`${base}/v1/graph-stats/chart?${heavyQuery(k, opts)}`, {
        headers: { Authorization: `Bearer ${tokens[k % tokens.length]}` },
      });
      const body = (await res.json()) as { meta?: { diagnostics?: { cached: boolean; compute_ms: number } } };
      if (res.status !== 200) throw new Error(`heavy request answered ${res.status}`);
      if (body.meta?.diagnostics?.cached === false) computeMs.push(body.meta.diagnostics.compute_ms);
    }
  };
  const latencies: number[] = [];
  const poll = async () => {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const t0 = performance.now();
      await (await fetch(`${base}/health`)).text();
      latencies.push(performance.now() - t0);
      await Bun.sleep(50);
    }
  };
  const loops = Array.from({ length: clients }, heavy);
  await Promise.all([poll(), poll()]);
  stop = true;
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  computeMs.sort((a, b) => a - b);
  return {
    health: {
      n: latencies.length,
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      p99: quantile(latencies, 0.99),
      max: latencies[latencies.length - 1]!,
    },
    heavyComputed: computeMs.length,
    heavyComputeMsP50: quantile(computeMs, 0.5),
  };
}
