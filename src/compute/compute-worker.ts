/**
 * Runs in a compute thread (src/compute/compute-threads.ts): gets the series (from its own read-only
 * connection to the server's database, with the market layer's cache, or the generated sample) and runs the engine's
 * computeChart in slices of about SLICE_MS (whole as-ofs): after each slice it posts `yielded` and
 * waits for the pool to say which job to resume, so other users' jobs get the thread in between.
 * A part of a split request (its share of the as-ofs) is computed the same way and posted back
 * unserialised; the thread given the join assembles and serialises the answer.
 * The result is serialised here (its JSON, and the tidy format asked for), so the event loop only
 * receives strings; a render job turns a cached result's JSON into csv/ndjson here too. A ChartError (the data cannot serve the request) comes back as its kind and message;
 * anything else as an internal failure whose message is for the log only.
 */
import type { Database } from "bun:sqlite";
import { openDatabase } from "../../db/open.ts";
import { computeChartPartSteps, computeChartSteps, joinChart, type ChartPart } from "../engine/chart.ts";
import { ChartError, type ChartResult } from "../engine/types.ts";
import { renderTidy, type TidyFormat } from "./serialise.ts";
import {
  type ComputeJoin,
  type ComputeRender,
  type ComputeReply,
  type ComputeRequest,
  computedOf,
  READY,
  type ToThread,
} from "./compute-messages.ts";
import { inputOf } from "./series-source.ts";
import { SeriesCache } from "../market/series-cache.ts";
import { SeriesLoader } from "../market/series-loader.ts";
import { portOf } from "../market/sqlite-port.ts";

declare const self: Worker;
/** The worker's global close(): ends this thread. */
declare function close(): void;

let db: { path: string; sqlite: Database; loader: SeriesLoader } | null = null;

/** The thread's lasting connection and series loader; its cache is bounded by this thread's share (series-cache.ts). */
function loaderFor(path: string, cacheBytes: number): SeriesLoader {
  if (db?.path !== path) {
    db?.sqlite.close();
    const sqlite = openDatabase(path, { attach: true, readOnly: "query", busyTimeoutMs: 1000 }).sqlite;
    db = { path, sqlite, loader: new SeriesLoader(portOf(sqlite), new SeriesCache(cacheBytes)) };
  }
  db.loader.cache.setBound(cacheBytes);
  return db.loader;
}

/** A slice runs whole as-ofs until this long has passed, then yields the thread. */
const SLICE_MS = 50;

type Steps = { whole: Generator<void, ChartResult> } | { part: Generator<void, ChartPart>; symbols: string[] };

const jobs = new Map<number, Steps & { nSymbols: number; render?: TidyFormat }>();

function slice(id: number, start?: ComputeRequest): ComputeReply {
  try {
    if (start) {
      const input = inputOf(start.source, start.params, loaderFor);
      const steps: Steps = start.part
        ? { part: computeChartPartSteps(input, start.params, start.part.index, start.part.of), symbols: input.symbols }
        : { whole: computeChartSteps(input, start.params) };
      jobs.set(id, { ...steps, nSymbols: input.symbols.length, render: start.render });
    }
    const job = jobs.get(id);
    if (!job) return { id, ok: false, internal: "unknown job" };
    const until = performance.now() + SLICE_MS;
    for (;;) {
      if ("part" in job) {
        const r = job.part.next();
        if (r.done) {
          jobs.delete(id);
          return { id, part: r.value, symbols: job.symbols };
        }
      } else {
        const r = job.whole.next();
        if (r.done) {
          jobs.delete(id);
          return finished(id, r.value, job.render, job.nSymbols);
        }
      }
      if (performance.now() >= until) return { id, yielded: true };
    }
  } catch (err) {
    jobs.delete(id);
    return failure(id, err);
  }
}

function finished(id: number, result: ChartResult, render: TidyFormat | undefined, nSymbols: number): ComputeReply {
  return { id, ok: true, ...computedOf(result.data, result.diagnostics, nSymbols, render) };
}

/** A split request's parts, joined and serialised here: one step, like the last slice of an unsplit one. */
function join(j: ComputeJoin): ComputeReply {
  try {
    return finished(j.id, joinChart(j.join.symbols, j.join.params, j.join.parts), j.join.render, j.join.symbols.length);
  } catch (err) {
    return failure(j.id, err);
  }
}

/** A cached result's JSON as csv/ndjson: one step, like a join. */
function render(r: ComputeRender): ComputeReply {
  try {
    return { id: r.id, rendered: renderTidy(r.tidy.json, r.tidy.format) };
  } catch (err) {
    return failure(r.id, err);
  }
}

function failure(id: number, err: unknown): ComputeReply {
  return err instanceof ChartError
    ? { id, ok: false, chartError: { kind: err.kind, message: err.message } }
    : { id, ok: false, internal: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

self.onmessage = (event: MessageEvent<ToThread>) => {
  if ("close" in event.data) {
    db?.sqlite.close();
    db = null;
    close();
    return;
  }
  if ("drop" in event.data) {
    // Its caller went away: the generator and its matrices are freed, no reply.
    jobs.delete(event.data.drop);
    return;
  }
  if ("join" in event.data) postMessage(join(event.data));
  else if ("tidy" in event.data) postMessage(render(event.data));
  else
    postMessage({
      ...("resume" in event.data ? slice(event.data.resume) : slice(event.data.id, event.data)),
      seriesBytes: db?.loader.cache.bytes() ?? 0,
    });
};

postMessage(READY);
