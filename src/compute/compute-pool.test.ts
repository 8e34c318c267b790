import { afterAll, describe, expect, test } from "bun:test";
import { parseChartParams } from "../http/params/params.ts";
import { ChartError, type ChartParams } from "../engine/types.ts";
import { Database } from "bun:sqlite";
import { mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../logger.ts";
import { openDatabase } from "../../db/open.ts";
import { getUniverse, importCsvSources, loadSeries, sampleSeriesInput } from "../market/index.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { ComputeCancelled, inlineCompute } from "./compute-pool.ts";
import { startComputePool } from "./compute-threads.ts";
import { computeChart } from "../engine/chart.ts";
import { toCsv, toNdjson } from "./tidy-export.ts";

const sample = sampleSeriesInput();
const params = (q: string): ChartParams => {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.params;
};
const silent = createLogger("silent");

/** Waits for `cond`, polling (a slice still running ends within about 50 ms plus one as-of). */
async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) throw new Error("condition not reached");
    await Bun.sleep(10);
  }
}
const src = { input: sample };

describe("compute threads", () => {
  const pool = startComputePool(2, silent);
  afterAll(() => pool.stop());

  test("give byte-identical data and the same diagnostics as computing inline, for jobs queued together", async () => {
    expect(pool.size).toBe(2);
    const cases = [
      "asof=2024-06-28&graph_method=knn",
      "asof=2023-03-31&graph_method=mst&corr_method=spearman",
      "periods=12&step=5&graph_method=threshold&include_graph=false",
      "asof=2022-06-30&lookback=20&graph_method=complete&sort=pagerank",
      "periods=3&graph_method=knn&knn_k=2",
    ].map(params);
    const got = await Promise.all(cases.map((p) => pool.compute(src, p)));
    cases.forEach((p, k) => {
      const want = inlineCompute(sample, p);
      expect(got[k]!.body).toBe(want.body);
      expect(got[k]!.diagnostics).toEqual(want.diagnostics);
    });
  });

  test("load the series from the database file themselves: the same bytes as loading and computing here", async () => {
    const path = sampleDb();
    // Beside the sample (1m and 1d bars), one symbol with daily bars only: it cannot be served hourly.
    const writer = openDatabase(path);
    importCsvSources(
      writer,
      [{ file: "DAILYONLY.csv", text: "timestamp,open,high,low,close,volume\n2025-09-29,1,2,1,2,5\n2025-09-30,2,3,2,3,5\n" }],
      { universe: "daily" },
    );
    writer.sqlite.close();
    const sqlite = new Database(path, { readonly: true });
    try {
      const symbols = getUniverse(sqlite, "sample")!.symbols;
      for (const q of ["asof=2024-06-28&graph_method=knn", "periods=5&interval=1w&graph_method=mst"]) {
        const p = params(q);
        const want = inlineCompute(loadSeries(sqlite, symbols, p.interval).input, p);
        expect((await pool.compute({ db: path, symbols }, p)).body).toBe(want.body);
      }
      // Daily bars cannot serve an hourly request: the loader's ChartError comes back as it is.
      const hourly = params("interval=1h");
      const err = await pool.compute({ db: path, symbols: ["DAILYONLY"] }, hourly).catch((e) => e);
      expect(err).toBeInstanceOf(ChartError);
      expect((err as ChartError).kind).toBe("interval-unavailable");
      expect(() => loadSeries(sqlite, ["DAILYONLY"], "1h")).toThrow((err as ChartError).message);
    } finally {
      sqlite.close();
    }
  });

  test("a request the data cannot serve rejects with the engine's ChartError, kind and message", async () => {
    const p = params("asof=2001-01-01");
    let inline: unknown;
    try {
      inlineCompute(sample, p);
    } catch (err) {
      inline = err;
    }
    expect(inline).toBeInstanceOf(ChartError);
    const err = await pool.compute(src, p).catch((e) => e);
    expect(err).toBeInstanceOf(ChartError);
    expect((err as ChartError).kind).toBe((inline as ChartError).kind);
    expect((err as ChartError).message).toBe((inline as ChartError).message);
  });
});

describe("cancelling a job whose caller went away", () => {
  test("a waiting job leaves the queue and a running one stops at its slice's end; the thread serves the next job", async () => {
    const pool = startComputePool(1, silent);
    try {
      const heavy = params("periods=250&lookback=300&corr_method=spearman&graph_method=complete&include_graph=true");
      const [running, waiting] = [new AbortController(), new AbortController()];
      const a = pool.compute(src, heavy, "a", running.signal).catch((e) => e);
      const b = pool.compute(src, { ...heavy, lookback: 299 }, "b", waiting.signal).catch((e) => e);
      await Bun.sleep(100); // a's first slice runs, b waits
      waiting.abort();
      running.abort();
      expect(await a).toBeInstanceOf(ComputeCancelled);
      expect(await b).toBeInstanceOf(ComputeCancelled);
      expect(pool.cancelled()).toBe(2);
      expect(pool.queued()).toBe(0);
      // The thread dropped a's state and is free: a small job is answered next, correctly.
      const p = params("asof=2024-06-28&graph_method=knn");
      expect((await pool.compute(src, p)).body).toBe(inlineCompute(sample, p).body);
      expect(pool.held()).toBe(0);
      // An already aborted signal never starts a job.
      expect(await pool.compute(src, p, "c", AbortSignal.abort()).catch((e) => e)).toBeInstanceOf(ComputeCancelled);
    } finally {
      pool.stop();
    }
  });
});

describe("a heavy rolling job on idle threads", () => {
  // Every rolling job estimated at 1 ms or more is split here, so small shapes exercise the split path.
  const pool = startComputePool(2, silent, undefined, { splitFromMs: 1 });
  afterAll(() => pool.stop());

  test("is split across them and gives byte-identical data and diagnostics to computing it inline", async () => {
    const cases = [
      "periods=40&step=3&lookback=30&graph_method=knn&include_graph=true",
      "periods=30&step=5&graph_method=mst&corr_method=spearman&include_graph=false",
      "periods=12&step=10&graph_method=complete&include_graph=all&metrics=pagerank",
      "periods=25&graph_method=tmfg&include_graph=true&format=csv",
      "start=2023-01-01&end=2023-06-30&step=3&graph_method=threshold&corr_threshold=0.3&include_graph=true",
    ];
    for (const q of cases) {
      const p = params(q);
      // The join renders the csv asked for with the computation.
      const render = q.includes("format=csv") ? "csv" : undefined;
      const before = pool.split();
      const got = await pool.compute(src, p, "u", undefined, 1, render);
      expect(pool.split()).toBe(before + 1);
      const want = inlineCompute(sample, p, render);
      expect(got.body).toBe(want.body);
      expect(got.tidy).toBe(want.tidy);
      expect(got.diagnostics).toEqual(want.diagnostics);
      expect(got.nSymbols).toBe(want.nSymbols);
    }
    // The parts load the series from the database file themselves, each on its thread.
    const path = sampleDb();
    const p = params("periods=20&step=2&graph_method=knn&include_graph=true");
    const got = await pool.compute({ db: path, symbols: sample.symbols }, p, "u", undefined, 1);
    expect(got.body).toBe(inlineCompute(sample, p).body);
    expect(pool.held()).toBe(0);
  });

  test("is not split below the threshold, without an estimate, as a snapshot, or when no other thread is idle", async () => {
    const before = pool.split();
    const rolling = params("periods=20&graph_method=knn");
    await pool.compute(src, rolling, "u", undefined, 0);
    await pool.compute(src, rolling, "u");
    await pool.compute(src, params("asof=2024-06-28&graph_method=knn"), "u", undefined, 1);
    // Two jobs at once: the first is split in two, so the second finds no idle thread.
    const heavy = params("periods=60&lookback=200&graph_method=complete&corr_method=spearman");
    const jobs = [pool.compute(src, heavy, "a", undefined, 1), pool.compute(src, { ...heavy, lookback: 199 }, "b", undefined, 1)];
    const [a, b] = await Promise.all(jobs);
    expect(pool.split()).toBe(before + 1);
    expect(a!.body).toBe(inlineCompute(sample, heavy).body);
    expect(b!.body).toBe(inlineCompute(sample, { ...heavy, lookback: 199 }).body);
  });

  test("a ChartError from the parts rejects the job once, and the threads hold nothing after", async () => {
    const p = params("periods=5&asof=2001-01-01");
    const err = await pool.compute(src, p, "u", undefined, 1).catch((e) => e);
    expect(err).toBeInstanceOf(ChartError);
    expect((err as ChartError).message).toBe(
      ((): string => {
        try {
          inlineCompute(sample, p);
          return "";
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    );
    await until(() => pool.held() === 0); // the other part's reply, dropped
    expect(pool.queued()).toBe(0);
  });
});

test("cancelling a split job drops every part, running or waiting, and frees both threads", async () => {
  const pool = startComputePool(2, silent, undefined, { splitFromMs: 1 });
  try {
    const heavy = params("periods=250&lookback=300&corr_method=spearman&graph_method=complete&include_graph=true");
    const leaving = new AbortController();
    const a = pool.compute(src, heavy, "a", leaving.signal, 1).catch((e) => e);
    expect(pool.split()).toBe(1);
    await Bun.sleep(100); // both parts are computing
    expect(pool.held()).toBe(2);
    leaving.abort();
    expect(await a).toBeInstanceOf(ComputeCancelled);
    expect(pool.cancelled()).toBe(1);
    expect(pool.queued()).toBe(0);
    // Each part stops at its slice's end and its thread drops its state: both threads answer next.
    const p = params("asof=2024-06-28&graph_method=knn");
    const next = await Promise.all([pool.compute(src, p, "b"), pool.compute(src, { ...p, knn_k: 3 }, "c")]);
    expect(next[0]!.body).toBe(inlineCompute(sample, p).body);
    expect(next[1]!.body).toBe(inlineCompute(sample, { ...p, knn_k: 3 }).body);
    await until(() => pool.held() === 0);
    // A split job that is cancelled after its parts are done but before the join drops the join.
    const small = params("periods=6&graph_method=mst&include_graph=true");
    const ac = new AbortController();
    const b = pool.compute(src, small, "d", ac.signal, 1).catch((e) => e);
    ac.abort();
    expect(await b).toBeInstanceOf(ComputeCancelled);
    expect((await pool.compute(src, small, "d", undefined, 1)).body).toBe(inlineCompute(sample, small).body);
    await until(() => pool.held() === 0); // a part's slice still running when the answer came ends and is dropped
  } finally {
    pool.stop();
  }
});

describe("a compute thread that dies", () => {
  test("fails only its own job, is replaced, and the pool keeps answering", async () => {
    const pool = startComputePool(1, silent, new URL("../../test/support/http/dying-worker.ts", import.meta.url).href);
    try {
      // Its very first job kills it: it had loaded, so this is a failure, not a thread that could not start.
      const dying = pool.compute(src, params("asof=2001-01-01"));
      const queued = pool.compute(src, params("asof=2024-06-28"));
      const err = await dying.catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err).not.toBeInstanceOf(ChartError);
      expect((err as Error).message).toContain("compute thread failed");
      expect(JSON.parse((await queued).body)).toEqual({ asof: "2024-06-28" });
      expect(pool.size).toBe(1);
      expect(JSON.parse((await pool.compute(src, params("asof=2020-06-30"))).body)).toEqual({ asof: "2020-06-30" });
    } finally {
      pool.stop();
    }
  });

  test("threads that cannot start are not restarted: their jobs and the later ones are computed here", async () => {
    const logPath = join(mkdtempSync(join(tmpdir(), "gs-pool-")), "log.jsonl");
    const logger = createLogger("info", openSync(logPath, "w"));
    const pool = startComputePool(2, logger, new URL("../../test/support/http/no-such-worker.ts", import.meta.url).href);
    try {
      const p = params("asof=2024-06-28&graph_method=knn");
      const got = await Promise.all([pool.compute(src, p), pool.compute(src, params("graph_method=mst"))]);
      expect(got[0]!.body).toBe(inlineCompute(sample, p).body);
      expect(pool.size).toBe(0);
      expect((await pool.compute(src, p)).body).toBe(inlineCompute(sample, p).body);
      const warnings = readFileSync(logPath, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(warnings.length).toBeGreaterThanOrEqual(1);
      expect(warnings.every((w) => w.level === "warn" && w.msg === "compute thread could not start; computing on the event loop")).toBe(
        true,
      );
    } finally {
      pool.stop();
    }
  });

  test("stop() lets an idle thread close its database connection (no file handle left open)", async () => {
    const path = sampleDb();
    // Handles on the database, its -wal and its -shm held by this process (threads included).
    const handles = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
        } catch {
          return false;
        }
      }).length;
    Bun.gc(true); // sampleDb's closed connection lets go of its files when collected
    const before = handles();
    const pool = startComputePool(1, silent);
    await pool.compute({ db: path, symbols: sample.symbols }, params("asof=2024-06-28"));
    expect(handles()).toBeGreaterThan(before); // the thread's connection
    pool.stop();
    for (let i = 0; i < 50 && handles() > before; i++) await Bun.sleep(10); // well before the 1 s terminate
    expect(handles()).toBe(before);
  });

  test("stop() fails queued jobs instead of leaving them pending", async () => {
    const pool = startComputePool(1, silent);
    const jobs = [pool.compute(src, params("periods=50&graph_method=complete")), pool.compute(src, params("graph_method=knn"))];
    pool.stop();
    for (const job of jobs) expect(((await job.catch((e) => e)) as Error).message).toBe("compute threads stopped");
    expect(((await pool.compute(src, params("graph_method=knn")).catch((e) => e)) as Error).message).toBe("compute threads stopped");
  });
});

test("0 threads compute on the calling thread", async () => {
  const pool = startComputePool(0, silent);
  const p = params("asof=2024-06-28&graph_method=knn");
  expect(pool.size).toBe(0);
  expect((await pool.compute(src, p)).body).toBe(inlineCompute(sample, p).body);
});

test("csv and ndjson are rendered on a thread, with the computation or from a result's JSON: the tidy export of the data", async () => {
  const pool = startComputePool(1, silent);
  const inline = startComputePool(0, silent);
  try {
    for (const q of ["periods=3&graph_method=mst", "periods=4&step=5&hierarchy=ward&clusters=3&weights=hrp&metrics=pagerank"]) {
      const p = params(q);
      const { data } = computeChart(sample, p);
      const json = JSON.stringify(data);
      for (const format of ["csv", "ndjson"] as const) {
        const want = format === "csv" ? toCsv(data) : toNdjson(data);
        const computed = await pool.compute(src, p, "u", undefined, undefined, format);
        expect(computed.body).toBe(json);
        expect(computed.tidy).toBe(want);
        expect(await pool.render(json, format, "u")).toBe(want);
        expect(await inline.render(json, format)).toBe(want);
      }
    }
    expect(pool.rendered()).toBe(4);
    expect(pool.started()).toBe(4);
    expect(pool.held()).toBe(0);
    expect((await pool.compute(src, params("periods=3"))).tidy).toBeUndefined();
    // A render job whose caller went away is cancelled like a computation.
    const json = inlineCompute(sample, params("periods=3")).body;
    expect(await pool.render(json, "csv", "u", AbortSignal.abort()).catch((e) => e)).toBeInstanceOf(ComputeCancelled);
  } finally {
    pool.stop();
  }
});
