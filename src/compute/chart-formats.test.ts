/**
 * The format is the HTTP request's, not the engine's (issue #21): JSON, CSV and NDJSON of the same
 * question are one computation. A later format is rendered from the cached result on a compute
 * thread, once however many ask, and cached beside it (its bytes counted); a render-only request is
 * priced at its render job. Bodies are the ones computing each format alone gives.
 */
import { describe, expect, test } from "bun:test";
import { getUniverse, loadSeries } from "../market/index.ts";
import { computeChart } from "../engine/chart.ts";
import { sampleChartService } from "../../test/support/sample-chart-service.ts";
import { AdmittedWork } from "./admitted-work.ts";
import type { ChartService } from "./chart-service.ts";
import { serialise, type Format } from "./serialise.ts";

const { db, service, params, pool } = sampleChartService();

const ROLLING = "periods=5&step=3&lookback=40&graph_method=tmfg&hierarchy=ward&clusters=4&weights=hrp&metrics=pagerank,degree_strength";

async function ask(chart: ChartService, q: string, format: Format) {
  return chart.compute(await chart.prepare(params(q), format));
}

/** Each format's body as computing that format alone gave it before (the worker serialised the engine's data). */
function expected(q: string, format: Format): string {
  const p = params(q);
  const input = loadSeries(db.sqlite, getUniverse(db.sqlite, "sample")!.symbols, p.interval).input;
  return serialise(computeChart(input, p).data, format);
}

/** The engine runs and render jobs `f` causes. */
async function counted(f: () => Promise<unknown>): Promise<{ engine: number; render: number }> {
  const [engine, render] = [pool().started(), pool().rendered()];
  await f();
  return { engine: pool().started() - engine, render: pool().rendered() - render };
}

describe("one computation for every format of a question", () => {
  test("JSON then CSV: the engine once, the CSV rendered once from the cached result, then served from the cache", async () => {
    const chart = service();
    const q = `${ROLLING}&include_graph=true`;
    const json = await ask(chart, q, "json");
    const bytes = chart.cacheBytes();
    let csv = json;
    expect(await counted(async () => (csv = await ask(chart, q, "csv")))).toEqual({ engine: 0, render: 1 });
    expect(csv.body).toBe(expected(q, "csv"));
    expect(csv.diagnostics).toEqual(json.diagnostics);
    // The rendered body is cached and counted in the cache's bytes.
    expect(chart.cacheBytes()).toBeGreaterThanOrEqual(bytes + csv.body.length);
    let again = csv;
    expect(await counted(async () => (again = await ask(chart, q, "csv")))).toEqual({ engine: 0, render: 0 });
    expect(again.body).toBe(csv.body);
    expect(again.cached).toBe(true);
    expect(await counted(async () => expect((await ask(chart, q, "ndjson")).body).toBe(expected(q, "ndjson")))).toEqual({
      engine: 0,
      render: 1,
    });
  });

  test("CSV then JSON: the CSV rendered with its computation, the JSON from the cache", async () => {
    const chart = service();
    const q = `${ROLLING}&include_graph=false`;
    expect(await counted(async () => expect((await ask(chart, q, "csv")).body).toBe(expected(q, "csv")))).toEqual({ engine: 1, render: 0 });
    let json: Awaited<ReturnType<typeof ask>> | null = null;
    expect(await counted(async () => (json = await ask(chart, q, "json")))).toEqual({ engine: 0, render: 0 });
    expect(json!.body).toBe(expected(q, "json"));
    expect(json!.cached).toBe(true);
  });

  test("asked at once in every format: one computation, and one render per other format", async () => {
    const chart = service();
    const q = "asof=2024-06-28&lookback=40&metrics=pagerank,degree_strength";
    const formats: Format[] = ["json", "csv", "ndjson", "csv", "json", "ndjson"];
    let bodies: string[] = [];
    const runs = await counted(async () => {
      bodies = (await Promise.all(formats.map((f) => ask(chart, q, f)))).map((o) => o.body);
    });
    expect(runs.engine).toBe(1);
    expect(runs.render).toBeLessThanOrEqual(2);
    formats.forEach((f, i) => expect(bodies[i]).toBe(expected(q, f)));
  });

  test("a client that goes away stops waiting; the render goes on for another that asked the same", async () => {
    const chart = service();
    const q = `${ROLLING}&include_graph=all`;
    await ask(chart, q, "json");
    const [first, second] = [await chart.prepare(params(q), "ndjson"), await chart.prepare(params(q), "ndjson")];
    const gone = new AbortController();
    const cancelled = pool().cancelled();
    const runs = await counted(async () => {
      // The first starts the render job, the second joins it, then the first goes away.
      const left = chart.compute(first, gone.signal).catch((e) => e);
      const stays = chart.compute(second);
      gone.abort(new Error("client closed"));
      expect(((await left) as Error).message).toBe("client closed");
      expect((await stays).body).toBe(expected(q, "ndjson"));
    });
    expect(runs).toEqual({ engine: 0, render: 1 });
    expect(pool().cancelled()).toBe(cancelled);
  });
});

test("a render-only request reserves its render job's cost and bytes, not the computation's; a cached body reserves nothing", async () => {
  const admitted = new AdmittedWork({ costMs: 1e9, bytes: 1e12 }, () => 1);
  const chart = service(admitted);
  const q = "periods=20&lookback=40&metrics=pagerank";
  const share = async (format: Format) => {
    const prepared = await chart.prepare(params(q), format);
    const reserved = chart.reserve(prepared);
    if (!("release" in reserved)) throw new Error("refused");
    const used = admitted.inUse();
    reserved.release();
    return { used, prepared };
  };
  const cold = await share("csv");
  expect(cold.used.costMs).toBe(cold.prepared.cost);
  expect(cold.used.bytes).toBe(cold.prepared.bytes);
  await ask(chart, q, "json");
  const render = await share("csv");
  expect(render.prepared.render).not.toBeNull();
  expect(render.used.costMs).toBe(render.prepared.render!.cost);
  expect(render.used.bytes).toBe(render.prepared.render!.bytes);
  expect(render.prepared.render!.cost).toBeLessThan(cold.prepared.cost);
  await ask(chart, q, "csv");
  expect((await share("csv")).used.jobs).toBe(0);
  expect((await share("json")).used.jobs).toBe(0);
});

test("a cached body is reserved in hand: answered from it without the engine even once the cache lets it go; another format is not in hand", async () => {
  const chart = service(new AdmittedWork({ costMs: 1e9, bytes: 1e12 }, () => 1));
  const q = "periods=3&lookback=30&metrics=degree_strength";
  const reserve = async (format: Format) => {
    const prepared = await chart.prepare(params(q), format);
    const reserved = chart.reserve(prepared);
    if (!("release" in reserved)) throw new Error("refused");
    reserved.release();
    return { prepared, inHand: reserved.inHand };
  };
  expect((await reserve("json")).inHand).toBeUndefined();
  const first = await ask(chart, q, "json");
  const held = await reserve("json");
  expect(held.inHand as object | undefined).toBe(first.result);
  expect((await reserve("csv")).inHand).toBeUndefined();
  // The cache drops everything between admission and the answer: the held body still answers.
  (chart as unknown as { cache: { clear(): void } }).cache.clear();
  let outcome: Awaited<ReturnType<ChartService["compute"]>> | undefined;
  expect(await counted(async () => (outcome = await chart.compute(held.prepared, undefined, held.inHand)))).toEqual({
    engine: 0,
    render: 0,
  });
  expect(outcome!.body).toBe(first.body);
  expect(outcome!.cached).toBe(true);
});
