/**
 * Compute threads for the live endpoint. computeChart is synchronous and takes from under a
 * millisecond (a NIFTY-50 snapshot) to many seconds (500 symbols, 100 periods, Spearman); on the
 * event loop that blocked every other request for as long — /health included — and a request still
 * in the accept queue when SIGTERM came was reset instead of drained. Here computations run in
 * `size` worker threads, and the event loop only waits.
 *
 * Fairness (DECISIONS §6): a thread computes a job in slices of about SLICE_MS (whole as-ofs,
 * engine/chart.ts computeChartSteps) and between slices the pool gives the thread to the waiting
 * user served least recently, so one user's heavy request delays another's small one by one slice,
 * not by its whole run. A started job stays on its thread (its state lives there).
 * The threads also load the series themselves, from the database file: a cold load of 50 symbols
 * is 20–60 ms (docs/benchmarks.md), which on the event loop delayed everything else as well.
 *
 * A thread that dies fails the job it held (the route answers 500 and refunds) and is replaced.
 * size 0, or threads that cannot start, mean computing on the event loop as before.
 */
import { computeChart } from "../engine/chart.ts";
import { ChartError, type ChartParams, type EngineDiagnostics, type SeriesInput } from "../engine/types.ts";
import type { Logger } from "../logger.ts";
import { FairQueue } from "./fair-queue.ts";
import { serialise } from "./serialise.ts";
import { inputOf, type SeriesSource } from "./series-source.ts";

/** Tells a thread to close its database connection and exit. */
export const CLOSE = { close: true } as const;

export interface ComputeRequest {
  id: number;
  source: SeriesSource;
  params: ChartParams;
}

/** Tells a thread to compute the next slice of a job it holds. */
export interface ComputeResume {
  resume: number;
}

/** Tells a thread to drop the state of a job whose caller went away (its remaining slices never run). */
export interface ComputeDrop {
  drop: number;
}

/** The caller went away before the answer (client closed): the job was cancelled, not failed. */
export class ComputeCancelled extends Error {
  constructor() {
    super("the computation was cancelled: its caller went away");
    this.name = "ComputeCancelled";
  }
}

/** A thread posts this once it has loaded, before any job. */
export const READY = { ready: true } as const;

export type ComputeReply =
  | ({ id: number; ok: true } & Computed)
  | { id: number; yielded: true }
  | { id: number; ok: false; chartError: { kind: ChartError["kind"]; message: string } }
  | { id: number; ok: false; internal: string };

export interface Computed {
  /** The chart's `data` in the request's format: its JSON, or its tidy csv/ndjson rows (serialise.ts). */
  body: string;
  diagnostics: EngineDiagnostics;
  /** How many symbols the series held. */
  nSymbols: number;
}

export interface ComputePool {
  /** Threads running (0 when computing on the event loop). */
  readonly size: number;
  /** Computations started so far (for tests and diagnostics). */
  started(): number;
  /** Slices of work waiting for a thread (/metrics). */
  queued(): number;
  /** Jobs cancelled because their caller went away (for tests and diagnostics). */
  cancelled(): number;
  /**
   * computeChart on the source's series, serialised; rejects with its ChartError, or an Error when
   * a thread failed. `user` is whose request it is, for fair scheduling ("" for unmetered work).
   * When `signal` aborts, the job's remaining slices are dropped and it rejects with ComputeCancelled.
   */
  compute(source: SeriesSource, params: ChartParams, user?: string, signal?: AbortSignal): Promise<Computed>;
  /** Stops the threads (an idle one closes its database connection first); jobs still queued or running fail. */
  stop(): void;
}

/** computeChart on the calling thread, serialised (size 0, the fallback, and inside a thread). */
export function inlineCompute(input: SeriesInput, params: ChartParams): Computed {
  const result = computeChart(input, params);
  return { body: serialise(result.data, params.format), diagnostics: result.diagnostics, nSymbols: input.symbols.length };
}

interface Job {
  request: ComputeRequest;
  user: string;
  resolve(c: Computed): void;
  reject(e: Error): void;
  /** The thread holding its state once started. */
  thread: Thread | null;
  /** Its caller went away: the slice running now is its last. */
  cancelled: boolean;
}

interface Thread {
  worker: Worker;
  /** The job whose slice is running. */
  job: Job | null;
  /** Started jobs whose state this thread holds. */
  resident: Set<Job>;
  /** It has loaded (posted READY). */
  ready: boolean;
}

export function startComputePool(size: number, logger: Logger, specifier = workerSpecifier()): ComputePool {
  const threads: Thread[] = [];
  const queue = new FairQueue<Job>();
  let nextId = 1;
  let started = 0;
  let cancelled = 0;
  let stopped = false;

  const settle = (job: Job, reply: Exclude<ComputeReply, { yielded: true }>) => {
    queue.finished(job.user);
    if (reply.ok) {
      const { id: _id, ok: _ok, ...computed } = reply;
      job.resolve(computed);
    } else if ("chartError" in reply) job.reject(new ChartError(reply.chartError.kind, reply.chartError.message));
    else job.reject(new Error(`compute thread: ${reply.internal}`));
  };

  const dispatch = () => {
    for (const t of threads) {
      if (t.job !== null) continue;
      const job = queue.take((j) => j.thread === null || j.thread === t);
      if (!job) continue;
      t.job = job;
      if (job.thread === null) {
        job.thread = t;
        t.resident.add(job);
        t.worker.postMessage(job.request);
      } else {
        t.worker.postMessage({ resume: job.request.id } satisfies ComputeResume);
      }
    }
  };

  /**
   * The caller went away: a waiting job leaves the queue (a started one's thread drops its state);
   * a job whose slice is running stops at the slice's end (onmessage). Either way it rejects now, so
   * the route answers and refunds without waiting for the slice.
   */
  const cancelJob = (job: Job) => {
    if (job.cancelled) return;
    job.cancelled = true;
    cancelled++;
    const waiting = queue.remove((j) => j === job) > 0;
    const t = job.thread;
    if (waiting && t) {
      t.resident.delete(job);
      t.worker.postMessage({ drop: job.request.id } satisfies ComputeDrop);
    }
    queue.finished(job.user);
    job.reject(new ComputeCancelled());
    dispatch();
  };

  /** A job computed on this thread after all (its thread could not start). */
  const runInline = (job: Job) => {
    queue.finished(job.user);
    try {
      job.resolve(inlineCompute(inputOf(job.request.source, job.request.params), job.request.params));
    } catch (err) {
      job.reject(err as Error);
    }
  };

  const spawn = (): Thread => {
    const t: Thread = { worker: new Worker(specifier), job: null, resident: new Set(), ready: false };
    t.worker.onmessage = (event: MessageEvent<ComputeReply | typeof READY>) => {
      if ("ready" in event.data) {
        t.ready = true;
        return;
      }
      const job = t.job;
      t.job = null;
      const reply = event.data;
      if (job && job.request.id === reply.id) {
        if (job.cancelled) {
          t.resident.delete(job);
          if ("yielded" in reply) t.worker.postMessage({ drop: job.request.id } satisfies ComputeDrop);
        } else if ("yielded" in reply) queue.push(job, job.user);
        else {
          t.resident.delete(job);
          settle(job, reply);
        }
      }
      dispatch();
    };
    // An uncaught error or an exit ends the thread. One that had loaded is replaced and fails the
    // job it held (the route answers 500 and refunds). One that never loaded could not start (a
    // build without the worker, say): it is not restarted, which would only fail again, and its
    // job and everything after it are computed on the event loop.
    const fail = (why: string) => {
      const i = threads.indexOf(t);
      if (i < 0) return;
      threads.splice(i, 1);
      t.worker.terminate();
      // A cancelled job has already left the pool and rejected.
      const job = t.job?.cancelled ? null : t.job;
      t.job = null;
      // Jobs whose state died with the thread fail with it (the route answers 500 and refunds).
      const lost = [...t.resident].filter((j) => j !== job);
      queue.remove((j) => j.thread === t);
      t.resident.clear();
      for (const j of lost) {
        queue.finished(j.user);
        j.reject(new Error(stopped ? "compute threads stopped" : `compute thread failed: ${why}`));
      }
      if (stopped) {
        job?.reject(new Error("compute threads stopped"));
        return;
      }
      if (!t.ready) {
        logger.warn({ err: why }, "compute thread could not start; computing on the event loop");
        if (job) runInline(job);
      } else {
        if (job) queue.finished(job.user);
        job?.reject(new Error(`compute thread failed: ${why}`));
        logger.error({ err: why }, "compute thread failed; starting another");
        try {
          threads.push(spawn());
        } catch (err) {
          logger.error({ err: (err as Error).message }, "could not start a compute thread");
        }
      }
      if (threads.length === 0) queue.drain().forEach(runInline);
      else dispatch();
    };
    t.worker.onerror = (event) => fail(event.message);
    t.worker.addEventListener("close", () => fail("exited"));
    t.worker.unref();
    return t;
  };

  for (let i = 0; i < size; i++) {
    try {
      threads.push(spawn());
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "compute threads unavailable; computing on the event loop");
      break;
    }
  }

  if (threads.length === 0) {
    return {
      size: 0,
      started: () => started,
      queued: () => 0,
      cancelled: () => 0,
      compute: async (source, params) => {
        started++;
        return inlineCompute(inputOf(source, params), params);
      },
      stop() {},
    };
  }

  return {
    get size() {
      return threads.length;
    },
    started: () => started,
    queued: () => queue.length,
    cancelled: () => cancelled,
    compute(source, params, user = "", signal) {
      if (stopped) return Promise.reject(new Error("compute threads stopped"));
      if (signal?.aborted) return Promise.reject(new ComputeCancelled());
      started++;
      // The work goes to the event loop when every thread has died and none could be restarted.
      if (threads.length === 0) return Promise.resolve().then(() => inlineCompute(inputOf(source, params), params));
      return new Promise<Computed>((resolve, reject) => {
        const job: Job = { request: { id: nextId++, source, params }, user, resolve, reject, thread: null, cancelled: false };
        const cancel = () => cancelJob(job);
        signal?.addEventListener("abort", cancel, { once: true });
        job.resolve = (c) => {
          signal?.removeEventListener("abort", cancel);
          resolve(c);
        };
        job.reject = (e) => {
          signal?.removeEventListener("abort", cancel);
          reject(e);
        };
        queue.started(user);
        queue.push(job, user);
        dispatch();
      });
    },
    stop() {
      stopped = true;
      for (const t of threads.splice(0)) {
        if (t.resident.size > 0) {
          t.worker.terminate();
          for (const j of t.resident) j.reject(new Error("compute threads stopped"));
        } else {
          // An idle thread closes its connection and exits; terminated after a second if it has not.
          t.worker.postMessage(CLOSE);
          setTimeout(() => t.worker.terminate(), 1000).unref();
        }
      }
      for (const job of queue.drain()) if (job.thread === null) job.reject(new Error("compute threads stopped"));
    },
  };
}

/**
 * From source the worker sits beside this file; in the compiled binary it is addressed relative
 * to the entries' common root (the repository, src/build-targets.ts), as the checkpoint worker is.
 */
function workerSpecifier(): string {
  return import.meta.url.startsWith("file:///$bunfs/")
    ? "./src/compute/compute-worker.ts"
    : new URL("./compute-worker.ts", import.meta.url).href;
}
