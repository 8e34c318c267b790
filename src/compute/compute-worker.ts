/**
 * Runs in a compute thread (src/compute/compute-pool.ts): gets the series (from its own read-only
 * connection to the server's database, with the market layer's cache, or the generated sample) and runs the engine's
 * computeChart in slices of about SLICE_MS (whole as-ofs): after each slice it posts `yielded` and
 * waits for the pool to say which job to resume, so other users' jobs get the thread in between.
 * The result is serialised here, in the requested format, so the event loop only receives a string. A ChartError (the data cannot serve the request) comes back as its kind and message;
 * anything else as an internal failure whose message is for the log only.
 */
import type { Database } from "bun:sqlite";
import { openDatabase } from "../../db/open.ts";
import { computeChartSteps } from "../engine/chart.ts";
import { ChartError, type ChartResult, type Format } from "../engine/types.ts";
import { serialise } from "./serialise.ts";
import { READY, type CLOSE, type ComputeDrop, type ComputeReply, type ComputeRequest, type ComputeResume } from "./compute-pool.ts";
import { inputOf } from "./series-source.ts";

declare const self: Worker;
/** The worker's global close(): ends this thread. */
declare function close(): void;

let db: { path: string; sqlite: Database } | null = null;

function connection(path: string): Database {
  if (db?.path !== path) {
    db = { path, sqlite: openDatabase(path, { attach: true, readOnly: "query", busyTimeoutMs: 1000 }).sqlite };
  }
  return db.sqlite;
}

/** A slice runs whole as-ofs until this long has passed, then yields the thread. */
const SLICE_MS = 50;

const jobs = new Map<number, { steps: Generator<void, ChartResult>; nSymbols: number; format: Format }>();

function slice(id: number, start?: ComputeRequest): ComputeReply {
  try {
    if (start) {
      const input = inputOf(start.source, start.params, connection);
      jobs.set(id, { steps: computeChartSteps(input, start.params), nSymbols: input.symbols.length, format: start.params.format });
    }
    const job = jobs.get(id);
    if (!job) return { id, ok: false, internal: "unknown job" };
    const until = performance.now() + SLICE_MS;
    for (;;) {
      const r = job.steps.next();
      if (r.done) {
        jobs.delete(id);
        const body = serialise(r.value.data, job.format);
        return { id, ok: true, body, diagnostics: r.value.diagnostics, nSymbols: job.nSymbols };
      }
      if (performance.now() >= until) return { id, yielded: true };
    }
  } catch (err) {
    jobs.delete(id);
    return failure(id, err);
  }
}

function failure(id: number, err: unknown): ComputeReply {
  return err instanceof ChartError
    ? { id, ok: false, chartError: { kind: err.kind, message: err.message } }
    : { id, ok: false, internal: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

self.onmessage = (event: MessageEvent<ComputeRequest | ComputeResume | ComputeDrop | typeof CLOSE>) => {
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
  postMessage("resume" in event.data ? slice(event.data.resume) : slice(event.data.id, event.data));
};

postMessage(READY);
