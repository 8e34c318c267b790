/**
 * Compute threads for the live endpoint. computeChart is synchronous and takes from under a
 * millisecond (a NIFTY-50 snapshot) to many seconds (500 symbols, 100 periods, Spearman); on the
 * event loop that blocked every other request for as long — /health included — and a request still
 * in the accept queue when SIGTERM came was reset instead of drained. The pool runs computations
 * in worker threads (compute-threads.ts starts them), and the event loop only waits; this is what
 * its callers see. Size 0, or threads that cannot start, mean computing on the event loop as
 * before (eventLoopPool).
 */
import { computeChart } from "../engine/chart.ts";
import type { ChartParams, SeriesInput } from "../engine/types.ts";
import { type Computed, computedOf } from "./compute-messages.ts";
import { renderTidy, type TidyFormat } from "./serialise.ts";
import { inputOf, type SeriesSource } from "./series-source.ts";

/** The caller went away before the answer (client closed): the job was cancelled, not failed. */
export class ComputeCancelled extends Error {
  constructor() {
    super("the computation was cancelled: its caller went away");
    this.name = "ComputeCancelled";
  }
}

export interface ComputePool {
  /** Threads running (0 when computing on the event loop). */
  readonly size: number;
  /** Computations started so far (engine runs; /metrics). */
  started(): number;
  /** Render jobs started so far (a cached result rendered in another format; /metrics). */
  rendered(): number;
  /** Slices of work waiting for a thread (/metrics). */
  queued(): number;
  /** Jobs cancelled because their caller went away (for tests and diagnostics). */
  cancelled(): number;
  /** Jobs split across idle threads so far (for tests and diagnostics). */
  split(): number;
  /** Tasks whose state the threads hold: started and not yet finished or dropped (for tests). */
  held(): number;
  /** Bytes the threads' series caches hold, as each last said (/metrics). */
  seriesCacheBytes(): number;
  /**
   * computeChart on the source's series, serialised; rejects with its ChartError, or an Error when
   * a thread failed. `user` is whose request it is, for fair scheduling ("" for unmetered work).
   * When `signal` aborts, the job's remaining slices are dropped and it rejects with ComputeCancelled.
   * `estimatedMs` (ms of one core, request-cost.ts): a rolling job estimated at splitFromMs or more
   * is split across the idle threads; without it the job is not split. `render`: also render the
   * data in that tidy format on the thread (Computed.tidy).
   */
  compute(
    source: SeriesSource,
    params: ChartParams,
    user?: string,
    signal?: AbortSignal,
    estimatedMs?: number,
    render?: TidyFormat,
  ): Promise<Computed>;
  /** A computed result's JSON rendered in a tidy format on a thread, in `user`'s fair share; cancelled like compute. */
  render(dataJson: string, format: TidyFormat, user?: string, signal?: AbortSignal): Promise<string>;
  /** Stops the threads (an idle one closes its database connection first); jobs still queued or running fail. */
  stop(): void;
}

/** computeChart on the calling thread, serialised (size 0, the fallback, and inside a thread). */
export function inlineCompute(input: SeriesInput, params: ChartParams, render?: TidyFormat): Computed {
  const result = computeChart(input, params);
  return computedOf(result.data, result.diagnostics, input.symbols.length, render);
}

export interface ComputePoolOptions {
  /** Rolling jobs estimated at this many ms of one core or more are split across idle threads. */
  splitFromMs?: number;
}

/**
 * Below this a job is not split: each part costs its own series load (cold, tens of ms for
 * hundreds of symbols), returns panel and message round trips, and the join a copy of the parts.
 */
export const SPLIT_FROM_MS = 200;

/** The pool without threads: each computation and render on the event loop, when asked. */
export function eventLoopPool(): ComputePool {
  let started = 0;
  let rendered = 0;
  return {
    size: 0,
    started: () => started,
    rendered: () => rendered,
    queued: () => 0,
    cancelled: () => 0,
    split: () => 0,
    held: () => 0,
    seriesCacheBytes: () => 0,
    compute: async (source, params, _user, _signal, _estimatedMs, render) => {
      started++;
      return inlineCompute(inputOf(source, params), params, render);
    },
    render: async (dataJson, format) => {
      rendered++;
      return renderTidy(dataJson, format);
    },
    stop() {},
  };
}
