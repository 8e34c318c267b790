import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

/** format=csv and format=ndjson on the live endpoint: the same numbers as JSON, metered the same. */
describe("tidy exports on the live endpoint", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await startHarness({ ratePerMinute: "1000", ratePerDay: "100000" });
    token = await h.token("tidy");
  });
  afterAll(() => h.stop());

  const Q = "asof=2024-06-28&lookback=40&periods=3&metrics=pagerank,degree_strength";

  test("csv: long rows with the JSON payload's numbers, rate-limit headers, gzip when asked", async () => {
    const json = await body(await h.get(`/v1/graph-stats/chart?${Q}`, { token }));
    const res = await h.get(`/v1/graph-stats/chart?${Q}&format=csv`, { token, headers: { "Accept-Encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("x-ratelimit-remaining")).not.toBeNull();
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe("date,symbol,metric,value,community");
    const stock = json.data.stocks[0];
    const point = stock.points[1];
    const row = lines.find((l) => l.startsWith(`${point.date},${stock.symbol},pagerank,`));
    expect(row).toBeDefined();
    expect(Number(row!.split(",")[3])).toBe(point.pagerank);
    // One row per stock, date and metric, plus the per-date graph statistics.
    expect(lines.filter((l) => l.split(",")[1] !== "").length - 1).toBe(json.data.stocks.length * 3 * 2);
  });

  test("ndjson: one JSON object per line", async () => {
    const res = await h.get(`/v1/graph-stats/chart?${Q}&format=ndjson`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/x-ndjson");
    const rows = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows[0]).toHaveProperty("metric");
  });

  test("the JSON, CSV and NDJSON of one question are one computation: the other formats are rendered from the cached result", async () => {
    const q = "asof=2024-06-28&lookback=41&periods=2&metrics=pagerank";
    const [engine, render] = [h.server.compute.started(), h.server.compute.rendered()];
    const json = await body(await h.get(`/v1/graph-stats/chart?${q}`, { token }));
    const csv = await (await h.get(`/v1/graph-stats/chart?${q}&format=csv`, { token })).text();
    expect(await (await h.get(`/v1/graph-stats/chart?${q}&format=csv`, { token })).text()).toBe(csv);
    expect((await h.get(`/v1/graph-stats/chart?${q}&format=ndjson`, { token })).status).toBe(200);
    expect(h.server.compute.started() - engine).toBe(1);
    expect(h.server.compute.rendered() - render).toBe(2);
    const row = csv.split("\n").find((l) => l.startsWith(`${json.data.stocks[0].points[1].date},${json.data.stocks[0].symbol},pagerank,`));
    expect(Number(row!.split(",")[3])).toBe(json.data.stocks[0].points[1].pagerank);
    // meta.params still echoes the format beside the engine's parameters.
    expect(json.meta.params.format).toBe("json");
  });

  test("errors stay JSON envelopes", async () => {
    const res = await h.get(`/v1/graph-stats/chart?format=xml`, { token });
    expect(res.status).toBe(400);
    expect((await body(res)).errors[0].message).toContain("format");
  });
});
