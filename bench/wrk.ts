/**
 * One wrk run against a server whose CPU use is read from /proc around it: the HTTP bench's
 * closed-loop load generator. wrk (C, epoll) is used rather than autocannon (node), which
 * saturated its own core before a Bun server did and so measured itself (issue #11 §6).
 */
import { readFileSync } from "node:fs";

export interface WrkResult {
  requests: number;
  rps: number;
  /** Latency percentiles from wrk --latency, ms. */
  p50: number;
  p99: number;
  non2xx: number;
  socketErrors: number;
  /** Server CPU (user + system, from /proc) per completed request, µs. */
  cpuUs: number;
  /** wrk's own CPU time over the run's wall time: near 1 would mean wrk, not the server, set the pace. */
  wrkBusy: number;
}

/** Instructions when wrk is missing, printed instead of figures that would mean nothing. */
export const WRK_MISSING =
  "wrk is not installed: the HTTP bench needs it (Debian/Ubuntu: `apt-get install -y wrk`; macOS: `brew install wrk`).";

export function wrkAvailable(): boolean {
  return Bun.which("wrk") !== null;
}

/** CPU time a process (all its threads) has used so far, in ms (Linux /proc; ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Pins every thread of `pid` to `cpu` (threads it starts later inherit it); false without taskset. */
export function pin(pid: number, cpu: string): boolean {
  if (process.platform !== "linux" || Bun.which("taskset") === null) return false;
  return Bun.spawnSync(["taskset", "-a", "-p", "-c", cpu, String(pid)], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function latencyMs(text: string, pct: string): number {
  const m = text.match(new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : NaN;
}

/**
 * `wrk -t1 -c<connections> -d<seconds>s --latency [-s script] url`, pinned to `cpu` when given, while the
 * server `pid`'s CPU time is sampled before and after.
 */
export async function wrk(
  url: string,
  pid: number,
  opts: { seconds: number; connections: number; cpu?: string; script?: string },
): Promise<WrkResult> {
  const cmd = ["wrk", "-t1", `-c${opts.connections}`, `-d${opts.seconds}s`, "--latency", ...(opts.script ? ["-s", opts.script] : []), url];
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  // Spawned asynchronously: this process must stay free while the run lasts.
  const proc = Bun.spawn(opts.cpu === undefined ? cmd : ["taskset", "-c", opts.cpu, ...cmd], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const cpu = cpuMs(pid) - cpu0;
  const wall = performance.now() - t0;
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${await new Response(proc.stderr).text()}`);
  const requests = Number(out.match(/(\d+) requests in/)?.[1]);
  const usage = proc.resourceUsage();
  const wrkCpuUs = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) : NaN;
  const errs = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  return {
    requests,
    rps: Number(out.match(/Requests\/sec:\s+([\d.]+)/)?.[1]),
    p50: latencyMs(out, "50"),
    p99: latencyMs(out, "99"),
    non2xx: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    socketErrors: errs ? errs.slice(1).reduce((n, x) => n + Number(x), 0) : 0,
    cpuUs: (cpu * 1000) / requests,
    wrkBusy: wrkCpuUs / 1000 / wall,
  };
}
