/**
 * The meter's rules, written once for both databases (docs/api.md § Metering): decide() on the
 * windows each database reads inside its lock (each waits for it off the event loop, then a
 * 503); a 429 decided from a read while the lock was elsewhere queued with the audit rows; a write the
 * storage refuses remembered until one succeeds; answered requests whose outcome could not be
 * written kept in order for the next flush (the row keeps counting until then, never twice);
 * audit rows and unauthenticated counts gathered in memory and written by flush(), never on the
 * request path. Each database supplies only its statements (db/sqlite/meter-statements.ts, db/pg/meter-statements.ts).
 */
import { DatabaseBusyError, databaseError, isBusy, writeFailureOf } from "../../db/errors.ts";
import type { Clock } from "../clock.ts";
import { createAuditQueue, type AuditRow } from "./audit-queue.ts";
import { denialMessage } from "./headers.ts";
import type { Finish, Meter } from "./meter.ts";
import type { Maybe, MeterPort } from "./meter-port.ts";
import { auditParamsText } from "./redact-query.ts";
import { createUnauthenticatedCounter } from "./unauthenticated-counter.ts";
import { decide, peekState, type WindowDecision } from "./windows.ts";

/** The watermark moves at most this often, and at least every HEARTBEAT_MS (STALE_OPEN_MS is an hour). */
const SETTLE_MS = 1000;
const HEARTBEAT_MS = 600_000;

export function createMeter(port: MeterPort, clock: Clock): Meter {
  const unauthenticated = createUnauthenticatedCounter(clock);
  const audit = createAuditQueue();
  let aggregated = 0;
  let queued = () => {};
  /** Set by a write the storage refused (full disk…), cleared by the next write that succeeds. */
  let lastWriteFailure: string | null = null;
  /** Outcomes of answered requests not yet written (database locked, down or full), in order. */
  const unfinished: Finish[] = [];
  /** This process's admitted rows not yet settled, and the id after its last admitted row: its watermark (reconcile.ts). */
  const open = new Set<number>();
  let nextLow: number | null = null;
  let settled = { low: -1, at: Number.NEGATIVE_INFINITY };
  /** Admitted rows written as answered (AdmitRequest.answered), by id: the status they carry, until finish(). */
  const answered = new Map<number, number>();
  /**
   * 429s refused from a read (no row written), queued at once, by the negative id admit gave them,
   * so finishRefused() can fill in their duration; cleared at each flush, which cannot run between
   * admit and the caller's finishRefused().
   */
  const refusedFromRead = new Map<number, AuditRow>();
  let lastRefusedId = 0;

  /** Runs a database call: driver errors become db/errors.ts's; a write's outcome sets or clears writeFailure(). */
  async function tracked<T>(run: () => Maybe<T>, writes = true): Promise<T> {
    try {
      const result = await run();
      if (writes) lastWriteFailure = null;
      return result;
    } catch (err) {
      lastWriteFailure = writeFailureOf(err) ?? lastWriteFailure;
      throw databaseError(err);
    }
  }

  /** Whether a failed outcome may wait for flush(): the database's condition, not a bug. */
  const canWait = (err: unknown) => isBusy(err) || lastWriteFailure !== null;

  async function flushAll(wait: boolean): Promise<void> {
    refusedFromRead.clear();
    while (unfinished.length > 0) {
      await tracked(() => port.finish(unfinished[0]!, wait));
      open.delete(unfinished.shift()!.logId);
    }
    await settle(wait);
    if (audit.pending() > 0) await tracked(() => audit.flushAsync(async (batch) => port.writeAudit(batch, wait)));
    if (unauthenticated.pending() > 0) await tracked(() => unauthenticated.flushAsync(async (counts) => port.writeCounts(counts, wait)));
    // While writes fail and nothing else is waiting, a one-row write finds out when they work again.
    if (lastWriteFailure !== null) await tracked(() => port.probe(clock.now(), wait));
  }

  /**
   * Moves the watermark at most once a second when it changed, and at least every HEARTBEAT_MS:
   * a watermark older than STALE_OPEN_MS is taken for a process gone elsewhere.
   */
  async function settle(wait: boolean): Promise<void> {
    if (nextLow === null) return;
    let low = nextLow;
    for (const id of open) if (id < low) low = id;
    const now = clock.now();
    const due = low !== settled.low ? now - settled.at >= SETTLE_MS : now - settled.at >= HEARTBEAT_MS;
    if (!due) return;
    await tracked(() => port.settle(low, now, wait));
    settled = { low, at: now };
  }

  /** Queues the row of a 429 refused from a read (its duration follows); returns the id finishRefused() knows it by. */
  function queueRefusal(requestId: string, userId: string, ts: number, code: string, params: string): number {
    const row: AuditRow = { requestId, userId, ts, status: 429, code, params, durationMs: null };
    const id = --lastRefusedId;
    if (audit.add(row)) refusedFromRead.set(id, row);
    else aggregated++;
    return id;
  }

  return {
    peek: (userId, limits) => tracked(async () => peekState(await port.windows(userId, limits, clock.now())), false),

    async admit(req) {
      const params = auditParamsText(req.params);
      let result: { decision: WindowDecision; logId: number | null };
      try {
        result = await tracked(() => port.admit(req, params, decide), false);
      } catch (err) {
        // The database's own condition (unreachable, refusing writes) is kept; a raw lock error becomes busy.
        throw isBusy(err) && !(err instanceof DatabaseBusyError) ? new DatabaseBusyError() : err;
      }
      const { decision: d } = result;
      // A refusal from a read wrote nothing, so it says nothing about writes working again.
      if (result.logId !== null) lastWriteFailure = null;
      if (d.ok) {
        const logId = result.logId!;
        // A row written as answered is not open: a crash leaves it charged, as the answer was in hand.
        if (req.answered === undefined) open.add(logId);
        else answered.set(logId, req.answered);
        if (nextLow === null || logId >= nextLow) nextLow = logId + 1;
        return { ok: true, logId, state: d.state };
      }
      const message = denialMessage(d.code, { ...d.state, retryAfter: d.retryAfter });
      const logId = result.logId ?? queueRefusal(req.requestId, req.userId, d.state.now, d.code, params);
      return { ok: false, code: d.code, retryAfter: d.retryAfter, message, state: d.state, logId };
    },

    async finish(logId, status, durationMs, opts) {
      const job: Finish = { logId, status, durationMs, refund: status >= 500 || opts?.refund === true };
      const written = answered.get(logId);
      answered.delete(logId);
      if (written === status && !job.refund) {
        // The row already says so: only its duration is left, written with the next flush's batch.
        audit.setDuration(logId, durationMs);
        return;
      }
      try {
        // Never waits for another process's lock on the event loop: a locked database defers it to flush().
        await tracked(() => port.finish(job, false));
        open.delete(logId);
      } catch (err) {
        // The answer stands and the row keeps counting; its outcome is written once the database takes writes.
        if (!canWait(err)) throw err;
        unfinished.push(job);
      }
    },

    finishRefused(logId, durationMs) {
      if (logId > 0) audit.setDuration(logId, durationMs);
      else {
        const row = refusedFromRead.get(logId);
        if (row) row.durationMs = durationMs;
        refusedFromRead.delete(logId);
      }
      queued();
    },

    async logUnmetered(e) {
      if (e.userId === null) {
        unauthenticated.add(e.code ?? String(e.status));
        return;
      }
      const row = {
        requestId: e.requestId,
        userId: e.userId,
        ts: clock.now(),
        status: e.status,
        code: e.code,
        params: auditParamsText(e.params),
        durationMs: e.durationMs,
      };
      if (!audit.add(row)) aggregated++;
      queued();
    },

    flush: (opts) => flushAll(!opts?.noWait),

    takeAggregated() {
      const n = aggregated;
      aggregated = 0;
      return n;
    },

    whenQueued(listener) {
      queued = listener;
    },

    writeFailure: () => lastWriteFailure,
  };
}
