import { describe, expect, test } from "bun:test";
import { computeChart } from "../engine/chart.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { parseChartParams } from "../http/params/params.ts";
import type { ChartData, RollingData, SeriesInput, SnapshotData } from "../engine/types.ts";
import { tidyRows, toCsv, toNdjson } from "./tidy-export.ts";

function input(): SeriesInput {
  const L = 80;
  const labels = Array.from(
    { length: L + 1 },
    (_, k) => `${new Date(Date.UTC(2024, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+05:30`,
  );
  const closes = factorReturns(7, L, 4).map((r) => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k] * Math.exp(r[k]);
    return c;
  });
  // One symbol listed late (null metrics and community early on) and one with a comma-free odd name.
  for (let k = 0; k < 50; k++) closes[6][k] = NaN;
  return { symbols: ["A", "B", "C", "M&M", "BAJAJ-AUTO", "F", "LATE"], labels, closes };
}

function chart(q: string): ChartData {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!r.ok) throw new Error(r.errors.join("; "));
  return computeChart(input(), r.params).data;
}

/** Minimal RFC 4180 reader for the writer's output (quoted cells, no line breaks inside). */
function readCsv(text: string): string[][] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const cells: string[] = [];
      let cur = "";
      let quoted = false;
      for (let k = 0; k < line.length; k++) {
        const ch = line[k];
        if (quoted && ch === '"' && line[k + 1] === '"') {
          cur += '"';
          k++;
        } else if (ch === '"') quoted = !quoted;
        else if (ch === "," && !quoted) {
          cells.push(cur);
          cur = "";
        } else cur += ch;
      }
      cells.push(cur);
      return cells;
    });
}

describe("tidy export", () => {
  test("snapshot: one row per symbol and metric, then the graph statistics; CSV carries the JSON's numbers", () => {
    const data = chart("lookback=30") as SnapshotData;
    const csv = readCsv(toCsv(data));
    expect(csv[0]).toEqual(["date", "symbol", "metric", "value", "community"]);
    expect(csv).toHaveLength(1 + 7 * 5 + 7);
    for (const s of data.stocks) {
      for (const m of data.metrics) {
        const row = csv.find((r) => r[1] === s.symbol && r[2] === m)!;
        expect(row[0]).toBe(data.asof_date);
        expect(row[3] === "" ? null : Number(row[3])).toBe(s[m] ?? null);
        expect(row[4] === "" ? null : Number(row[4])).toBe(s.community ?? null);
      }
    }
    const stats = data.graph_stats![0];
    for (const [metric, v] of Object.entries(stats).filter(([k]) => k !== "date")) {
      const row = csv.find((r) => r[1] === "" && r[2] === metric)!;
      expect(row[3] === "" ? null : Number(row[3])).toBe(v as number | null);
    }
  });

  test("rolling: every point, with its tracked community; NDJSON and CSV are the same rows", () => {
    const data = chart("lookback=20&periods=12&step=3&include_graph=all") as RollingData;
    const rows = tidyRows(data);
    expect(rows).toHaveLength(7 * 12 * 5 + 12 * 7);
    const late = rows.filter((r) => r.symbol === "LATE");
    expect(late.some((r) => r.value === null && r.community === null)).toBe(true);
    expect(late.some((r) => r.value !== null && r.community !== null)).toBe(true);
    const nd = toNdjson(data)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(nd).toEqual(rows);
    const csv = readCsv(toCsv(data)).slice(1);
    expect(
      csv.map((r) => ({
        date: r[0],
        symbol: r[1],
        metric: r[2],
        value: r[3] === "" ? null : Number(r[3]),
        community: r[4] === "" ? null : Number(r[4]),
      })),
    ).toEqual(rows);
    // The numbers are the JSON payload's, point by point.
    for (const s of data.stocks) {
      s.points.forEach((p) => {
        for (const m of data.metrics) {
          const r = rows.find((x) => x.symbol === s.symbol && x.date === p.date && x.metric === m)!;
          expect(r.value).toBe(p[m] ?? null);
          expect(r.community).toBe(p.community ?? null);
        }
      });
    }
  });

  test("clusters and weights: a cluster and a weight row per point after its metrics, turnover rows by date (issue 26)", () => {
    const snap = chart("lookback=30&weights=hrp&clusters=3&metrics=pagerank") as SnapshotData;
    const rows = tidyRows(snap);
    expect(rows).toHaveLength(7 * 3 + 7);
    expect(rows.slice(0, 3).map((r) => r.metric)).toEqual(["pagerank", "cluster", "weight"]);
    for (const s of snap.stocks) {
      expect(rows.find((r) => r.symbol === s.symbol && r.metric === "cluster")!.value).toBe(s.cluster!);
      expect(rows.find((r) => r.symbol === s.symbol && r.metric === "weight")!.value).toBe(s.weight!);
    }
    expect(rows.some((r) => r.metric === "turnover")).toBe(false);
    const roll = chart("lookback=20&periods=12&step=3&weights=equal&include_graph=false&metrics=degree_strength") as RollingData;
    const rr = tidyRows(roll);
    // LATE joins within the range: null weight rows before, and a turnover row per date (null first).
    expect(rr).toHaveLength(7 * 12 * 2 + 12);
    const turnover = rr.filter((r) => r.metric === "turnover");
    expect(turnover.map((r) => r.date)).toEqual(roll.asof_dates);
    expect(turnover.map((r) => r.value)).toEqual(roll.weights!.turnover!);
    expect(turnover.every((r) => r.symbol === "" && r.community === null)).toBe(true);
    expect(rr.filter((r) => r.symbol === "LATE" && r.metric === "weight").some((r) => r.value === null)).toBe(true);
    const csv = readCsv(toCsv(roll));
    expect(csv.filter((r) => r[2] === "turnover")[0]).toEqual([roll.asof_dates[0], "", "turnover", "", ""]);
  });

  test("a cell with a comma or quote is quoted", () => {
    const data = chart("lookback=30") as SnapshotData;
    data.stocks[0].symbol = 'X,"Y"';
    expect(toCsv(data).split("\n")[1].startsWith(`${data.asof_date},"X,""Y""",`)).toBe(true);
  });
});

describe("signal-or-noise rows", () => {
  test("percentiles after each metric, reliability per edge, community_stability, spectrum and matrix rows", () => {
    const snap = chart("lookback=40&bootstrap=5&spectrum=true&include_corr=true&metrics=pagerank,degree_strength") as SnapshotData;
    const rows = tidyRows(snap);
    const a = snap.stocks[0]!;
    expect(rows.slice(0, 6).map((r) => r.metric)).toEqual([
      "pagerank",
      "pagerank_p05",
      "pagerank_p95",
      "degree_strength",
      "degree_strength_p05",
      "degree_strength_p95",
    ]);
    expect(rows[1]!.value).toBe(a.pagerank_p05!);
    expect(rows.find((r) => r.metric === "community_stability")!.value).toBe(snap.graph.community_stability!);
    const e = snap.graph.edge_list![0]!;
    expect(rows.find((r) => r.symbol === e.source && r.metric === `reliability:${e.target}`)!.value).toBe(e.reliability!);
    expect(rows.filter((r) => r.metric.startsWith("reliability:")).length).toBe(snap.graph.edges);
    const spec = snap.graph.spectrum!;
    expect(rows.find((r) => r.metric === "lambda_plus")!.value).toBe(spec.lambda_plus);
    expect(rows.filter((r) => r.metric.startsWith("eigenvalue_")).map((r) => r.value)).toEqual(spec.eigenvalues);
    const m = snap.graph.corr_matrix!;
    const corrRows = rows.filter((r) => r.metric.startsWith("corr:"));
    expect(corrRows.length).toBe(m.symbols.length ** 2);
    expect(corrRows.find((r) => r.symbol === m.symbols[1] && r.metric === `corr:${m.symbols[0]}`)!.value).toBe(m.matrix[1]![0]!);
    // The CSV carries the same rows, quoted where a symbol needs it.
    expect(toCsv(snap).trimEnd().split("\n").length).toBe(rows.length + 1);
  });

  test("rolling: every as-of's spectrum with include_graph=all, the latest's otherwise", () => {
    const all = chart("lookback=40&periods=3&spectrum=true&include_graph=all&metrics=pagerank") as RollingData;
    expect(
      tidyRows(all)
        .filter((r) => r.metric === "lambda_plus")
        .map((r) => r.date),
    ).toEqual(all.asof_dates);
    const latest = chart("lookback=40&periods=3&spectrum=true&metrics=pagerank") as RollingData;
    expect(
      tidyRows(latest)
        .filter((r) => r.metric === "lambda_plus")
        .map((r) => r.date),
    ).toEqual([latest.asof_dates[2]]);
  });
});
