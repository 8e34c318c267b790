// The multi-URL logic of limits.js and soak.js against REAL servers: two graph-stats processes on one
// database file share the limiter, so a burst spread over both admits exactly the limit and the ledger
// agrees; two processes on separate files do not, and the same ledger flags the over-admission.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverBinary } from "../../test/support/binary.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { mintTokens } from "../runner/server.ts";
import { startInstances, type RunningInstances } from "../runner/instances.ts";
import { errorCode } from "./envelope.js";
import { parseRateLimits } from "./headers.js";
import { parseTokenList } from "./tokens.js";
import { createLedger, type Observation } from "./admission.js";
import { baseUrlsFrom, burstInstances, createRotation } from "./targets.js";

const SECRET = "multi-instance-secret-0123456789";
const PER_MINUTE = 2;
const QUERY = "/v1/graph-stats/chart?include_graph=false";
let dir: string;
let shared: RunningInstances;
let urls: string[];
let tokens: { user: string; token: string }[];
let command: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "gs-load-multi-"));
  command = [await serverBinary()];
  const db = sampleDb(join(dir, "shared.sqlite")); // holding the sample already: the servers need not load it
  shared = await startInstances(2, { command, dbPath: db, secret: SECRET, ratePerMinute: PER_MINUTE, ratePerDay: 1000 });
  // The URL list exactly as k6 would read it from `-e BASE_URLS=...` (trailing slash and all).
  urls = baseUrlsFrom({ BASE_URLS: shared.baseUrls.map((u) => `${u}/`).join(",") });
  tokens = parseTokenList(await mintTokens(command, db, SECRET, 3, "multi-"), "token create output");
}, 90_000);
afterAll(async () => {
  await shared?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(url: string, token: string) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
}

/** One limits.js burst of `size` concurrent requests spread over `targets`, judged by a fresh ledger. */
async function burst(targets: string[], token: string, size: number) {
  const spread = burstInstances(targets.length, size, 1);
  const startMs = Date.now();
  const responses = await Promise.all(spread.map((i) => get(`${targets[i]}${QUERY}`, token)));
  const endMs = Date.now();
  const obs: Observation[] = responses.map((r) => {
    const lim = parseRateLimits(r.headers);
    return { startMs, endMs, status: r.status, code: errorCode(r.body), remaining: lim.remaining, dailyRemaining: lim.dailyRemaining };
  });
  const perInstance = targets.map((_, i) => spread.filter((s) => s === i).length);
  return {
    perInstance,
    statuses: responses.map((r) => r.status),
    verdict: createLedger().recordBurst(obs, { perMinute: PER_MINUTE, perDay: 1000 }),
  };
}

describe("two instances on one database file", () => {
  test("the runner started two processes on distinct ports, both healthy", async () => {
    expect(new Set(shared.servers.map((s) => s.pid)).size).toBe(2);
    expect(urls).toEqual(shared.baseUrls);
    for (const u of urls) expect((await fetch(`${u}/health`)).status).toBe(200);
  });

  test("a burst of one user spread over both admits exactly the limit, and the ledger agrees", async () => {
    const b = await burst(urls, tokens[0]!.token, 6);
    expect(b.perInstance).toEqual([3, 3]);
    expect(b.statuses.filter((s) => s === 200).length).toBe(PER_MINUTE);
    expect(b.statuses.filter((s) => s === 429).length).toBe(6 - PER_MINUTE);
    expect(b.verdict).toMatchObject({ admitted: PER_MINUTE, overAdmitted: 0, underAdmitted: 0, staleRemaining: 0 });
  });

  test("a soak rotation alternates instances and they count one user's requests together", async () => {
    const rotation = createRotation(urls.length, 0);
    const seen: { instance: number; status: number; remaining: number | null }[] = [];
    for (let i = 0; i < 3; i++) {
      const at = rotation.next();
      const r = await get(`${urls[at]}${QUERY}`, tokens[1]!.token);
      seen.push({ instance: at, status: r.status, remaining: parseRateLimits(r.headers).remaining });
    }
    expect(seen).toEqual([
      { instance: 0, status: 200, remaining: 1 },
      { instance: 1, status: 200, remaining: 0 },
      { instance: 0, status: 429, remaining: 0 },
    ]);
  });
});

describe("control: two instances on separate database files", () => {
  test("each admits the limit on its own, and the same ledger flags the over-admission", async () => {
    const apart = await Promise.all(
      [0, 1].map((i) =>
        startInstances(1, {
          command,
          dbPath: sampleDb(join(dir, `apart-${i}.sqlite`)),
          secret: SECRET,
          ratePerMinute: PER_MINUTE,
          ratePerDay: 1000,
        }),
      ),
    );
    try {
      // An unknown user with a valid signature is created on first use, so one minted token works on both.
      const b = await burst(
        apart.map((a) => a.baseUrls[0]!),
        tokens[2]!.token,
        6,
      );
      expect(b.statuses.filter((s) => s === 200).length).toBe(2 * PER_MINUTE);
      expect(b.verdict.overAdmitted).toBe(PER_MINUTE);
    } finally {
      await Promise.all(apart.map((a) => a.stop()));
    }
  }, 90_000);
});
