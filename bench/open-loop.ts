/**
 * A fixed-rate (open-loop) load generator: request i is due at start + i/rate, and its latency is
 * measured from when it was due, so a stalled server cannot hide its queue (no coordinated
 * omission). autocannon's --overallRate releases requests in bursts, which inflates its p50/p99
 * at a fixed rate; this is used for the "p99 at 500 requests/s" figure.
 */
export interface OpenLoopResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export async function openLoop(opts: {
  url: string;
  rate: number;
  seconds: number;
  headers?: (i: number) => Record<string, string>;
}): Promise<OpenLoopResult> {
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const inflight: Promise<void>[] = [];
  const start = performance.now() + 50;
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && start + (next * 1000) / opts.rate <= now) {
      const due = start + (next * 1000) / opts.rate;
      const i = next++;
      inflight.push(
        fetch(opts.url, { headers: opts.headers?.(i) })
          .then(async (res) => {
            await res.arrayBuffer();
            latencies.push(performance.now() - due);
            if (res.status >= 200 && res.status < 300) ok++;
            else non2xx++;
          })
          .catch(() => {
            errors++;
          }),
      );
    }
    await Bun.sleep(0.5);
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN).toFixed(2));
  return { sent: total, ok, non2xx, errors, rps: Math.round(total / elapsed), p50: pct(0.5), p90: pct(0.9), p99: pct(0.99), max: pct(1) };
}
