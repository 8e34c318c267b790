/**
 * Where a cached live answer's CPU goes (issue #22's ablation): the real server in this process,
 * driven through its handler (no socket: HTTP parsing is the same for every server), once whole
 * and once with each part replaced by the least that stands in for it (startServer's override).
 * A part's cost is the whole's CPU per request minus the variant's; the sides alternate, and each
 * round gives every part a figure. 500 users, the same query (so the result cache answers).
 * Run: npx bun bench/live-ablation.ts [--requests 3000] [--rounds 5]   (prints a markdown table)
 */
import { openSync } from "node:fs";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { loadConfig } from "../src/config.ts";
import type { AuthGate } from "../src/http/auth-gate.ts";
import type { AppDeps } from "../src/http/context.ts";
import { type RunningServer, startServer } from "../src/server.ts";
import { createLogger } from "../src/logger.ts";
import type { Meter } from "../src/metering/meter.ts";
import { sampleDb } from "../test/support/http/harness.ts";
import { median } from "./median.ts";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REQUESTS = arg("--requests", 3000);
const ROUNDS = arg("--rounds", 5);
const USERS = 500;
const SECRET = "bench-secret-0123456789abcdef";
const URL_ = "http://127.0.0.1/v1/graph-stats/chart?lookback=60";
const LIMITS = { perMinute: 1_000_000, perDay: 100_000_000 };

const tokens = await Promise.all(
  Array.from(
    { length: USERS },
    async (_, i) => (await mintToken({ secret: SECRET, userId: `abl-${i}`, ttlSeconds: 86_400, clock: systemClock })).token,
  ),
);

/** Stand-ins: each the least a server could do for that part. */
const users = new Map(tokens.map((t, i) => [`Bearer ${t}`, { id: `abl-${i}`, limits: LIMITS, plan: "free" }]));
const knownUser: AuthGate = async (header) => users.get(header ?? "")!;
const admitted = { now: 0, limits: LIMITS, minuteUsed: 1, dayUsed: 1, oldestInWindow: 0, nextMidnight: 86_400_000 };
const noMeter: Meter = {
  peek: async () => admitted,
  admit: async () => ({ ok: true, logId: 1, state: admitted }),
  finish: async () => {},
  finishRefused: () => {},
  logUnmetered: async () => {},
  flush: async () => {},
  takeAggregated: () => 0,
  whenQueued: () => {},
  writeFailure: () => null,
};
const devNull = openSync("/dev/null", "a");

interface Variant {
  part: string;
  override: Partial<AppDeps>;
  logLevel?: string;
}
const VARIANTS: Variant[] = [
  { part: "whole", override: {} },
  { part: "token check (HS256, claims) and the revocation and user reads", override: { auth: knownUser } },
  { part: "the meter: admit (one transaction) and finish (the UPDATE)", override: { meter: noMeter } },
  { part: "access log line", override: {}, logLevel: "warn" },
  { part: "Prometheus counters", override: { metrics: undefined } },
  { part: "database check before each request (cached 100 ms)", override: { checkDatabase: () => true } },
];

const servers: RunningServer[] = [];
for (const v of VARIANTS) {
  // Each its own copy of the sample database and its own users, minted as `token create` does.
  const config = loadConfig(
    {
      port: "0",
      host: "127.0.0.1",
      db: sampleDb(),
      jwtSecret: SECRET,
      defaultUniverse: "sample",
      sample: false,
      ratePerMinute: String(LIMITS.perMinute),
      ratePerDay: String(LIMITS.perDay),
    },
    {},
  );
  servers.push(await startServer(config, createLogger(v.logLevel ?? "info", devNull, true), { override: v.override }));
}

const request = (i: number) => new Request(URL_, { headers: { Authorization: `Bearer ${tokens[i % USERS]}` } });
async function cpuPerRequest(s: RunningServer, n: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await s.handle(request(i));
    if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

try {
  for (const s of servers) await cpuPerRequest(s, 1000); // warm: JIT, statement caches, result cache, users
  const rounds: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const row = new Array<number>(servers.length).fill(0);
    for (const i of [...servers.keys(), ...[...servers.keys()].reverse()]) row[i]! += (await cpuPerRequest(servers[i]!, REQUESTS)) / 2;
    rounds.push(row);
  }
  const whole = rounds.map((r) => r[0]!);
  const fmt = (xs: number[]) => `**${median(xs).toFixed(0)}** (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  const rows = VARIANTS.slice(1).map((v, k) => {
    const saved = rounds.map((r) => r[0]! - r[k + 1]!);
    return `| ${v.part} | ${fmt(saved)} | ${(100 * (median(saved) / median(whole))).toFixed(0)}% |`;
  });
  console.log(`### Where a cached live answer's CPU goes (\`npx bun bench/live-ablation.ts --requests ${REQUESTS} --rounds ${ROUNDS}\`)

The server in-process, through its handler (no socket), whole and with each part replaced by the least that stands in
for it; a part's cost is the difference. ${ROUNDS} rounds, palindromic; median (range).

| part of a cached live answer (in-process, no socket) | CPU µs per request | share |
|---|---:|---:|
| whole (the handler, from Request to the response's bytes) | ${fmt(whole)} | 100% |
${rows.join("\n")}`);
} finally {
  for (const s of servers) await s.stop();
}
