/**
 * The compute pool's threads (the pool's contract: compute-pool.ts; a thread's side:
 * compute-worker.ts, the messages between them: compute-messages.ts). Computations run in `size`
 * worker threads, and the event loop only waits.
 *
 * Fairness (docs/api.md § Heavy requests): a thread computes a job in slices of about SLICE_MS (whole as-ofs,
 * engine/chart.ts computeChartSteps) and between slices the pool gives the thread to the waiting
 * user served least recently, so one user's heavy request delays another's small one by one slice,
 * not by its whole run. A started job stays on its thread (its state lives there).
 * The threads also load the series themselves, from the database file: a cold load of 50 symbols
 * is 20–60 ms (docs/benchmarks.md), which on the event loop delayed everything else as well.
 *
 * Splitting (README.md § Operations, Splitting heavy requests): a heavy rolling job that arrives while
 * threads are idle is cut into one part per idle thread, contiguous shares of its as-ofs
 * (engine/chart.ts computeChartPartSteps), and a last task joins them on whichever thread is free.
 * Parts are queued as the job's user's work like any slice, so another user's request still gets
 * the next free thread; only idle threads are split into, and a busy pool does not split.
 *
 * Rendering (docs/api.md § Heavy requests): a csv/ndjson body is rendered with its computation, or,
 * for a result computed before in another format, by a render job of its own (one step, queued
 * like a slice), so a 30 MB export is never rendered on the event loop.
 *
 * A thread that dies fails the jobs it held (the route answers 500 and refunds) and is replaced.
 * size 0, or threads that cannot start, mean computing on the event loop as before (eventLoopPool).
 */
import { isRolling } from "../engine/asofs.ts";
import type { ChartPart } from "../engine/chart.ts";
import { ChartError, type ChartParams } from "../engine/types.ts";
import type { Logger } from "../logger.ts";
import {
  CLOSE,
  type ComputeDrop,
  type ComputeJoin,
  type ComputeRender,
  type ComputeReply,
  type ComputeRequest,
  type ComputeResume,
  type Computed,
  type FromThread,
} from "./compute-messages.ts";
import {
  ComputeCancelled,
  type ComputePool,
  type ComputePoolOptions,
  eventLoopPool,
  inlineCompute,
  SPLIT_FROM_MS,
} from "./compute-pool.ts";
import { FairQueue } from "./fair-queue.ts";
import { renderTidy, type TidyFormat } from "./serialise.ts";
import { inputOf } from "./series-source.ts";

interface Job {
  user: string;
  /** The job done on the event loop instead (its thread could not start). */
  inline(): Computed | string;
  /** What a split job's join is given besides its parts. */
  params: ChartParams | null;
  render?: TidyFormat;
  resolve(value: Computed | string): void;
  reject(e: Error): void;
  /** Answered, failed or cancelled: a slice of it still running is its last. */
  over: boolean;
  /** Its tasks not yet finished: queued, running or holding state on a thread. */
  tasks: Set<Task>;
  /** A split job's parts by index, as they arrive (null: not yet); null for a job computed whole. */
  parts: ({ part: ChartPart; symbols: string[] } | null)[] | null;
}

/** What a thread runs for a job: the whole of it, one part, the join of its parts, or a render. */
interface Task {
  job: Job;
  start: ComputeRequest | ComputeJoin | ComputeRender;
  /** The thread holding its state once started. */
  thread: Thread | null;
}

interface Thread {
  worker: Worker;
  /** The task whose slice is running. */
  task: Task | null;
  /** Started tasks whose state this thread holds. */
  resident: Set<Task>;
  /** It has loaded (posted READY). */
  ready: boolean;
  /** Bytes its series cache held at its last reply. */
  seriesBytes: number;
}

/** The pool of `size` threads running `specifier` (compute-worker.ts), or eventLoopPool() when none starts. */
export function startComputePool(
  size: number,
  logger: Logger,
  specifier = workerSpecifier(),
  options: ComputePoolOptions = {},
): ComputePool {
  const splitFromMs = options.splitFromMs ?? SPLIT_FROM_MS;
  const threads: Thread[] = [];
  const queue = new FairQueue<Task>();
  const jobs = new Set<Job>();
  let nextId = 1;
  let started = 0;
  let rendered = 0;
  let cancelled = 0;
  let split = 0;
  let stopped = false;

  /** The job leaves the pool: it is answered or rejected once, and its waiting tasks are dropped. */
  const end = (job: Job) => {
    job.over = true;
    jobs.delete(job);
    queue.remove((task) => task.job === job);
    for (const task of job.tasks) {
      const t = task.thread;
      // A task whose slice is running is dropped when the slice ends (onmessage).
      if (t && t.task !== task && threads.includes(t)) {
        t.resident.delete(task);
        t.worker.postMessage({ drop: task.start.id } satisfies ComputeDrop);
      }
    }
    queue.finished(job.user);
  };

  const fail = (job: Job, err: Error) => {
    if (job.over) return;
    end(job);
    job.reject(err);
  };

  const answer = (job: Job, reply: Exclude<ComputeReply, { yielded: true } | { part: ChartPart }>) => {
    if ("rendered" in reply) {
      end(job);
      job.resolve(reply.rendered);
    } else if (reply.ok) {
      end(job);
      const { id: _id, ok: _ok, seriesBytes: _bytes, ...computed } = reply;
      job.resolve(computed);
    } else if ("chartError" in reply) fail(job, new ChartError(reply.chartError.kind, reply.chartError.message));
    else fail(job, new Error(`compute thread: ${reply.internal}`));
  };

  const addTask = (job: Job, start: Task["start"]) => {
    const task: Task = { job, start, thread: null };
    job.tasks.add(task);
    queue.push(task, job.user);
  };

  /** A part arrived; once all have, the join is queued as the job's next task. */
  const partDone = (job: Job, index: number, done: { part: ChartPart; symbols: string[] }) => {
    const parts = job.parts!;
    parts[index] = done;
    if (parts.some((p) => p === null)) return;
    const ready = parts as { part: ChartPart; symbols: string[] }[];
    const join = { symbols: ready[0].symbols, params: job.params!, parts: ready.map((p) => p.part), render: job.render };
    addTask(job, { id: nextId++, join });
  };

  const dispatch = () => {
    for (const t of threads) {
      if (t.task !== null) continue;
      const task = queue.take((k) => k.thread === null || k.thread === t);
      if (!task) continue;
      t.task = task;
      if (task.thread === null) {
        task.thread = t;
        t.resident.add(task);
        t.worker.postMessage(task.start);
      } else {
        t.worker.postMessage({ resume: task.start.id } satisfies ComputeResume);
      }
    }
    // A computing thread keeps the process's event loop waiting on it: with only unreferenced
    // workers pending, Bun's loop spins on a core instead of sleeping (one of two cores, on 2).
    for (const t of threads) {
      if (t.task) t.worker.ref();
      else t.worker.unref();
    }
  };

  /**
   * The caller went away: the job's waiting tasks leave the queue (their threads drop their state);
   * a task whose slice is running stops at the slice's end (onmessage). Either way it rejects now,
   * so the route answers and refunds without waiting for the slice.
   */
  const cancelJob = (job: Job) => {
    if (job.over) return;
    cancelled++;
    fail(job, new ComputeCancelled());
    dispatch();
  };

  /** A job computed on this thread after all (its thread could not start). */
  const runInline = (job: Job) => {
    if (job.over) return;
    end(job);
    try {
      job.resolve(job.inline());
    } catch (err) {
      job.reject(err as Error);
    }
  };

  const spawn = (): Thread => {
    const t: Thread = { worker: new Worker(specifier), task: null, resident: new Set(), ready: false, seriesBytes: 0 };
    t.worker.onmessage = (event: MessageEvent<FromThread>) => {
      if ("ready" in event.data) {
        t.ready = true;
        return;
      }
      const task = t.task;
      t.task = null;
      const reply = event.data;
      t.seriesBytes = reply.seriesBytes ?? t.seriesBytes;
      if (task && task.start.id === reply.id) {
        const job = task.job;
        if ("yielded" in reply && !job.over) queue.push(task, job.user);
        else {
          t.resident.delete(task);
          job.tasks.delete(task);
          if ("yielded" in reply) t.worker.postMessage({ drop: task.start.id } satisfies ComputeDrop);
          else if (job.over) {
            // Cancelled or failed meanwhile: the reply is dropped.
          } else if ("part" in reply) partDone(job, (task.start as ComputeRequest).part!.index, reply);
          else answer(job, reply);
        }
      }
      dispatch();
    };
    // An uncaught error or an exit ends the thread. One that had loaded is replaced and fails the
    // jobs it held (the route answers 500 and refunds). One that never loaded could not start (a
    // build without the worker, say): it is not restarted, which would only fail again, and its
    // job and everything after it are computed on the event loop.
    const died = (why: string) => {
      const i = threads.indexOf(t);
      if (i < 0) return;
      threads.splice(i, 1);
      t.worker.terminate();
      const held = [...new Set([...(t.task ? [t.task] : []), ...t.resident].map((task) => task.job))];
      t.task = null;
      t.resident.clear();
      if (stopped) {
        for (const job of held) fail(job, new Error("compute threads stopped"));
        return;
      }
      if (!t.ready) {
        logger.warn({ err: why }, "compute thread could not start; computing on the event loop");
        held.forEach(runInline);
      } else {
        for (const job of held) fail(job, new Error(`compute thread failed: ${why}`));
        logger.error({ err: why }, "compute thread failed; starting another");
        try {
          threads.push(spawn());
        } catch (err) {
          logger.error({ err: (err as Error).message }, "could not start a compute thread");
        }
      }
      if (threads.length === 0) [...new Set(queue.drain().map((task) => task.job))].forEach(runInline);
      else dispatch();
    };
    t.worker.onerror = (event) => died(event.message);
    t.worker.addEventListener("close", () => died("exited"));
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

  if (threads.length === 0) return eventLoopPool();

  /** A new job of `user`: cancelled when `signal` aborts; `queue` adds its first tasks. */
  const enter = <V extends Computed | string>(
    user: string,
    signal: AbortSignal | undefined,
    inline: () => V,
    params: ChartParams | null,
    render: TidyFormat | undefined,
    queueTasks: (job: Job) => void,
  ): Promise<V> =>
    new Promise<V>((resolve, reject) => {
      const job: Job = { user, inline, params, render, resolve: () => {}, reject, over: false, tasks: new Set(), parts: null };
      const cancel = () => cancelJob(job);
      signal?.addEventListener("abort", cancel, { once: true });
      job.resolve = (v) => {
        signal?.removeEventListener("abort", cancel);
        resolve(v as V);
      };
      job.reject = (e) => {
        signal?.removeEventListener("abort", cancel);
        reject(e);
      };
      jobs.add(job);
      queue.started(user);
      queueTasks(job);
      dispatch();
    });

  /**
   * Into how many parts a new job is cut: one per idle thread (dispatch has given every waiting task
   * it can, so an idle thread is one nothing waits for), at most one per as-of of a counted request.
   */
  const partsFor = (params: ChartParams, estimatedMs: number | undefined): number => {
    if (estimatedMs === undefined || estimatedMs < splitFromMs || !isRolling(params)) return 1;
    const idle = threads.filter((t) => t.task === null).length;
    return Math.max(1, Math.min(idle, params.start === null ? params.periods : idle));
  };

  return {
    get size() {
      return threads.length;
    },
    started: () => started,
    rendered: () => rendered,
    queued: () => queue.length,
    cancelled: () => cancelled,
    split: () => split,
    held: () => threads.reduce((n, t) => n + t.resident.size, 0),
    seriesCacheBytes: () => threads.reduce((n, t) => n + t.seriesBytes, 0),
    compute(source, params, user = "", signal, estimatedMs, render) {
      if (stopped) return Promise.reject(new Error("compute threads stopped"));
      if (signal?.aborted) return Promise.reject(new ComputeCancelled());
      started++;
      const inline = () => inlineCompute(inputOf(source, params), params, render);
      // The work goes to the event loop when every thread has died and none could be restarted.
      if (threads.length === 0) return Promise.resolve().then(inline);
      return enter<Computed>(user, signal, inline, params, render, (job) => {
        const of = partsFor(params, estimatedMs);
        if (of === 1) addTask(job, { id: nextId++, source, params, render });
        else {
          split++;
          job.parts = Array.from({ length: of }, () => null);
          for (let index = 0; index < of; index++) addTask(job, { id: nextId++, source, params, part: { index, of } });
        }
      });
    },
    render(dataJson, format, user = "", signal) {
      if (stopped) return Promise.reject(new Error("compute threads stopped"));
      if (signal?.aborted) return Promise.reject(new ComputeCancelled());
      rendered++;
      const inline = () => renderTidy(dataJson, format);
      if (threads.length === 0) return Promise.resolve().then(inline);
      return enter<string>(user, signal, inline, null, undefined, (job) => {
        addTask(job, { id: nextId++, tidy: { json: dataJson, format } });
      });
    },
    stop() {
      stopped = true;
      for (const t of threads.splice(0)) {
        if (t.resident.size > 0) t.worker.terminate();
        else {
          // An idle thread closes its connection and exits; terminated after a second if it has not.
          t.worker.postMessage(CLOSE);
          setTimeout(() => t.worker.terminate(), 1000).unref();
        }
      }
      for (const job of [...jobs]) fail(job, new Error("compute threads stopped"));
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
