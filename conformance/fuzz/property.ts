/**
 * One operation fuzzed as a fast-check property: "every generated request gets an answer the
 * document allows". fast-check generates the cases from the seed, stops at the first failing one
 * and shrinks it; the last failing execution is the minimal case, reported with a curl command.
 */
import fc from "fast-check";
import type { Context } from "../lib/context.ts";
import { type Exchange, type Finding, type FuzzOperationStat, Skip } from "../lib/types.ts";
import { type AuthKind, caseArbitrary, expectationOf, type FuzzCase, requestPath } from "./cases.ts";
import type { Operation } from "./document.ts";
import type { Credentials, Pacer } from "./pacing.ts";
import { findingOf } from "./repro.ts";
import type { Judge } from "./validate.ts";

/** Shrinking steps that may send a request: each is a call (a fresh user's, with --secret), so it is bounded. */
export const MAX_SHRINK_REQUESTS = 80;

/** A per-check, per-operation seed: adding an operation to the document leaves the others' cases unchanged. */
export function operationSeed(seed: number, check: string, operation: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${check} ${operation}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return (seed ^ h) >>> 0;
}

export interface OperationRun {
  stat: FuzzOperationStat;
  finding?: Finding;
  evidence: Exchange[];
}

export interface FuzzTools {
  judge: Judge;
  pacer: Pacer;
  seed: number;
  cases: number;
}

interface Attempt {
  c: FuzzCase;
  url: string;
  cred: Credentials;
  problems: string[];
  exchanges: Exchange[];
}

/** Fuzz `op` with `auths` credentials; `twice` lets cases be sent twice by one user (the second answer is the 429 to judge). */
export async function fuzzOperation(
  ctx: Context,
  tools: FuzzTools,
  check: string,
  op: Operation,
  auths: AuthKind[],
  twice = false,
): Promise<OperationRun> {
  const stat: FuzzOperationStat = {
    check,
    operation: op.id,
    generated: 0,
    sent: 0,
    statuses: {},
    again: { sent: 0, statuses: {} },
    notSent: {},
    failed: false,
  };
  let failing: Attempt | undefined;
  let shrinkRequests = 0;
  const seed = operationSeed(tools.seed, check, op.id);

  /** The exchange, or why it was not sent (the kit's metered-call budget). */
  const send = async (path: string, cred: Credentials, headers: Record<string, string>): Promise<Exchange | string> => {
    const all = { ...headers, ...(cred.authorization !== undefined ? { Authorization: cred.authorization } : {}) };
    try {
      const ex = await ctx.client.request(path, { headers: all, metered: cred.metered, record: false });
      tools.pacer.observe(ex, cred);
      return ex;
    } catch (err) {
      if (err instanceof Skip) return err.message;
      throw err;
    }
  };
  const count = (into: Record<string, number>, key: string | number) => {
    into[key] = (into[key] ?? 0) + 1;
  };

  let crash: unknown;
  const property = fc.asyncProperty(caseArbitrary(op, auths, { twice }), async (c) => {
    // An unreachable target is no property of the case: stop generating, and report it after.
    if (crash !== undefined) return true;
    try {
      return await runCase(c);
    } catch (err) {
      crash = err;
      return true;
    }
  });

  const runCase = async (c: FuzzCase): Promise<boolean> => {
    const shrinking = failing !== undefined;
    if (shrinking && ++shrinkRequests > MAX_SHRINK_REQUESTS) return true;
    if (!shrinking) stat.generated++;
    const expect = expectationOf(op, c);
    const cred = await tools.pacer.credentials(c.auth);
    const exchanges: Exchange[] = [];
    for (let i = 0; i < (c.twice ? 2 : 1); i++) {
      const admission = await tools.pacer.admit(cred, expect.violations.length > 0);
      const ex = admission.send ? await send(requestPath(op, c), cred, c.headers) : admission.reason;
      if (typeof ex === "string") {
        if (!shrinking && i === 0) count(stat.notSent, ex);
        break;
      }
      exchanges.push(ex);
    }
    if (!exchanges.length) return true;
    if (!shrinking) {
      stat.sent++;
      count(stat.statuses, exchanges[0]!.status);
      if (exchanges[1]) {
        stat.again.sent++;
        count(stat.again.statuses, exchanges[1].status);
      }
    }
    const problems = exchanges.flatMap((ex, i) =>
      tools.judge.problems(op, ex, expect).map((p) => (i === 1 ? `the same request again, by the same user: ${p}` : p)),
    );
    if (!problems.length) return true;
    failing = { c, url: exchanges[0]!.url, cred, problems, exchanges };
    return false;
  };

  const details = await fc.check(property, { seed, numRuns: tools.cases });
  if (crash !== undefined) throw crash;
  if (!details.failed || !failing) {
    if (details.failed && details.errorInstance) throw details.errorInstance;
    return { stat, evidence: [] };
  }
  stat.failed = true;
  const finding = findingOf({
    check,
    operation: op.id,
    seed: tools.seed,
    c: failing.c,
    url: failing.url,
    cred: failing.cred,
    problems: failing.problems,
    casesRun: details.numRuns,
    shrinks: details.numShrinks,
    path: details.counterexamplePath ?? undefined,
  });
  return { stat, finding, evidence: failing.exchanges };
}
