// The client against another implementation of the interface (conformance/second-implementation/, Python):
// other parameter names, 422 for bad values, other 401 codes, an anchored minute window. Only what the
// interface binds is relied on: the envelope, errors[0].code, Retry-After, X-RateLimit-*, the expired-token 401.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PYTHON, type PyServer, startSecondImplementation } from "../../../conformance/second-implementation/process.ts";
import { BadRequestError, GraphStatsClient, QuotaExceededError, TokenExpiredError, UnauthorizedError } from "../src/index.ts";
import { sign, sleeps } from "./server.ts";

const SECRET = "second-implementation-secret-0123456789";
const clock = join(mkdtempSync(join(tmpdir(), "gs-ts-other-")), "clock-offset");
let other: PyServer;
beforeAll(async () => {
  writeFileSync(clock, "0");
  other = await startSecondImplementation({ secret: SECRET, perMinute: 1, perDay: 3, flags: ["--clock-offset-file", clock] });
}, 30_000);
afterAll(() => other?.stop());

const advance = (seconds: number) => writeFileSync(clock, String(Number(readFileSync(clock, "utf8")) + seconds));
const token = (sub: string, expIn = 3600) => {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub, iat: now, exp: now + expIn }, SECRET);
};

test.skipIf(!PYTHON)("its names from its own document; its answers in rows; its limits honoured", async () => {
  await expect(new GraphStatsClient({ baseUrl: other.url, token: token("a") }).chart({ measures: "degree" })).rejects.toThrow(TypeError);
  const s = sleeps((ms) => advance(ms / 1000)); // while the client waits, the server's clock moves on as much
  const client = new GraphStatsClient({ baseUrl: other.url, token: token("a"), parameters: "server", sleep: s.sleep });
  await expect(client.chart({ measure: "degree" })).rejects.toThrow(/did you mean 'measures'/);
  const r = await client.chart({ measures: ["degree", "strength"], tickers: ["ALFA", "BRVO", "CHRL"] });
  expect([r.rows().length, r.rateLimit?.limit, r.rateLimit?.dailyRemaining]).toEqual([6, 1, 2]);
  const series = await client.chart({ periods: 3, measures: ["eigenvector"], tickers: ["ALFA", "BRVO"] }); // RATE_LIMITED, waited out
  expect([series.rows().length, new Set(series.rows().map((row) => row.date)).size, s.waits.length]).toEqual([6, 3, 1]);
  advance(61);
  await client.chart();
  advance(61);
  expect(await client.chart().catch((e) => e)).toBeInstanceOf(QuotaExceededError);
  expect(s.waits.length).toBe(1);
});

test.skipIf(!PYTHON)("its 422 is BadRequestError; its expired token TokenExpiredError; INVALID_TOKEN UnauthorizedError", async () => {
  const client = new GraphStatsClient({ baseUrl: other.url, token: token("b"), parameters: "server" });
  const bad = await client.chart({ lookback: 1, periods: 99 }).catch((e) => e);
  expect([bad instanceof BadRequestError, bad.status, bad.errors.length]).toEqual([true, 422, 2]);
  expect(await new GraphStatsClient({ baseUrl: other.url, token: token("c", -60) }).chart().catch((e) => e)).toBeInstanceOf(
    TokenExpiredError,
  );
  const invalid = await new GraphStatsClient({ baseUrl: other.url, token: "not-a-jwt" }).chart().catch((e) => e);
  expect([invalid instanceof UnauthorizedError, invalid instanceof TokenExpiredError, invalid.code]).toEqual([
    true,
    false,
    "INVALID_TOKEN",
  ]);
  expect((await new GraphStatsClient({ baseUrl: other.url }).health()).data).toMatchObject({ healthy: true });
});
