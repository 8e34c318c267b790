/**
 * Shrinking and reproduction, against a small fake server with one planted bug (a 500 when
 * lookback >= 900): the fuzz run finds it, shrinks it to that one parameter, and every reporter
 * prints the seed and a curl command with the token left out.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runKit } from "../lib/runner.ts";
import type { KitOptions, RunReport } from "../lib/types.ts";
import { jsonReport } from "../reporters/json.ts";
import { junitReport } from "../reporters/junit.ts";
import { textReport } from "../reporters/text.ts";
import { FIXTURE } from "./fixture.ts";
import { curlLine, shellQuote } from "./repro.ts";

const META = () => ({ generated_at: new Date().toISOString() });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "content-type": "application/json", ...headers } });
const error = (status: number, headers: Record<string, string> = {}) =>
  json(status, { success: false, errors: [{ code: "X", message: "x" }], data: null, meta: META() }, headers);

let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/openapi.json") return Response.json(FIXTURE);
      if (url.pathname === "/health") return new Response("ok", { headers: { "content-type": "text/plain" } });
      if (url.pathname !== "/v1/graph-stats/chart") return error(404);
      if (!/^Bearer ey[\w-]+\.ey[\w-]+\.[\w-]+$/.test(req.headers.get("authorization") ?? "")) return error(401);
      const lookback = url.searchParams.getAll("lookback");
      if (lookback.some((v) => /^\d+$/.test(v) && Number(v) >= 900 && Number(v) <= 1000)) return error(500);
      // Otherwise a careful server: every value checked by hand, anything else refused.
      const rules: Record<string, (v: string) => boolean> = {
        lookback: (v) => /^\d+$/.test(v) && Number(v) >= 2 && Number(v) <= 1000,
        mode: (v) => v === "a" || v === "b",
        ratio: (v) => /^\d*\.?\d+(e-?\d+)?$/i.test(v) && Number(v) >= 0 && Number(v) <= 1,
        day: (v) => {
          const t = Date.parse(`${v}T00:00:00Z`);
          return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
        },
        name: (v) => /^[a-z]{1,8}$/.test(v),
      };
      const keys = [...url.searchParams.keys()];
      if (new Set(keys).size !== keys.length || keys.some((k) => !rules[k]?.(url.searchParams.get(k)!))) return error(400);
      return json(200, { success: true, errors: [], data: { stocks: [], n: 1 }, meta: META() }, { "X-Count": "1" });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const options = (seed: number): KitOptions => ({
  baseUrl: base,
  secret: "repro-secret",
  budget: 1000,
  slow: false,
  profile: "fuzz",
  reporter: "text",
  limitsFromHeaders: false,
  timeoutMs: 5000,
  only: ["fuzz.live"],
  seed,
  cases: 200,
});

describe("a fuzz failure, shrunk and reproducible", () => {
  let report: RunReport;
  beforeAll(async () => {
    report = await runKit(options(11));
  });

  test("is found and shrunk to the one parameter that matters", () => {
    const r = report.results[0]!;
    expect(r.outcome).toBe("failed");
    const f = r.findings![0]!;
    expect(f.operation).toBe("getChart");
    expect(f.problems).toEqual(["answered 500: a server error (no request, however odd, may cause one)"]);
    expect(f.case).toMatch(/^getChart auth=valid lookback="(\d+)"$/);
    expect(Number(/lookback="(\d+)"/.exec(f.case)![1])).toBeGreaterThanOrEqual(900);
    expect(f.shrinks).toBeGreaterThanOrEqual(0);
    expect(f.seed).toBe(11);
  });

  test("the curl command is ready to run, with $TOKEN instead of the token", () => {
    const f = report.results[0]!.findings![0]!;
    expect(f.curl).toMatch(
      new RegExp(`^curl -sS -g -i -H "Authorization: Bearer \\$TOKEN" '${base}/v1/graph-stats/chart\\?lookback=\\d+'$`),
    );
    expect(f.curl).not.toContain("ey");
    expect(f.tokenNote).toContain("TOKEN");
  });

  test("the same seed finds the same minimal case", async () => {
    const again = await runKit(options(11));
    expect(again.results[0]!.findings![0]!.case).toBe(report.results[0]!.findings![0]!.case);
    expect(again.fuzz!.operations).toEqual(report.fuzz!.operations);
  });

  test("text, JSON and JUnit reports carry the seed, the case and the curl line, never a token", () => {
    const f = report.results[0]!.findings![0]!;
    const text = textReport(report);
    expect(text).toContain("rerun: --seed 11");
    expect(text).toContain(f.curl);
    expect(text).toContain("fuzz: seed 11 (rerun with --seed 11); 200 cases per operation and check");
    expect(text).toMatch(/FAIL {2}fuzz\.live getChart: \d+ generated/);
    const doc = JSON.parse(jsonReport(report));
    expect(doc.fuzz.seed).toBe(11);
    expect(doc.results[0].findings[0].curl).toBe(f.curl);
    const xml = junitReport(report);
    expect(xml).toContain('<property name="fuzz_seed" value="11"/>');
    expect(xml).toContain("rerun: --seed 11");
    for (const out of [text, JSON.stringify(doc), xml]) expect(out).not.toMatch(/Bearer ey/);
  });
});

describe("curl rendering", () => {
  test("quotes for the shell; probes are written out, real tokens never", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(curlLine("http://h/p?a='b'", { curlAuthorization: "Bearer not.a.jwt", metered: false })).toBe(
      `curl -sS -g -i -H 'Authorization: Bearer not.a.jwt' 'http://h/p?a='\\''b'\\'''`,
    );
    expect(curlLine("http://h/p", { metered: false })).toBe("curl -sS -g -i 'http://h/p'");
  });
});
