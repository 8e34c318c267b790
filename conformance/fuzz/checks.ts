/**
 * The fuzz profile's checks, plugged into the kit's runner like any other: the document itself,
 * then generated requests to every public operation, to every secured one with valid credentials,
 * and to every secured one with credentials no server may accept. They run after the other
 * profiles' checks and keep their exchanges out of the envelope sweeps' log.
 */
import type { Check } from "../lib/check.ts";
import { type Context, LIVE_PATH } from "../lib/context.ts";
import { type Exchange, Failure, type Finding, type FuzzSummary, Skip } from "../lib/types.ts";
import { type AuthKind, PROBE_AUTHS } from "./cases.ts";
import { type LoadedDocument, loadDocument, type Operation } from "./document.ts";
import { Pacer } from "./pacing.ts";
import { type FuzzTools, fuzzOperation } from "./property.ts";
import { Judge } from "./validate.ts";

/** Cases per operation and check when --cases is not given: a default run stays within a minute on a local server. */
export const DEFAULT_CASES = 150;

interface FuzzState {
  loaded: LoadedDocument;
  tools: FuzzTools;
  summary: FuzzSummary;
}

/** The document, judge, pacer and seed, shared by the fuzz checks of one run. */
function fuzzState(ctx: Context): Promise<FuzzState> {
  return ctx.once("fuzz", async () => {
    const seed = ctx.options.seed ?? Math.floor(Math.random() * 2 ** 31);
    const cases = ctx.options.cases ?? DEFAULT_CASES;
    // The summary exists before the document loads, so a run that cannot load it still prints its seed.
    ctx.fuzzSummary = { seed, casesPerOperation: cases, operations: [], waitedMs: 0 };
    const loaded = await loadDocument(ctx.client, ctx.options.openapi);
    ctx.fuzzSummary.document = `${loaded.source} (OpenAPI ${loaded.version})`;
    const pacer = new Pacer(ctx);
    return { loaded, tools: { judge: new Judge(loaded), pacer, seed, cases }, summary: ctx.fuzzSummary };
  });
}

/** Fuzz each operation in turn; one Failure carrying every operation's minimal case. */
async function fuzzAll(ctx: Context, check: string, ops: Operation[], auths: AuthKind[], twice = false): Promise<void> {
  const state = await fuzzState(ctx);
  const findings: Finding[] = [];
  const evidence: Exchange[] = [];
  for (const op of ops) {
    const run = await fuzzOperation(ctx, state.tools, check, op, auths, twice);
    state.summary.operations.push(run.stat);
    state.summary.waitedMs = state.tools.pacer.waitedMs;
    if (run.finding) {
      findings.push(run.finding);
      evidence.push(...run.evidence);
    }
  }
  if (findings.length) {
    const what = findings.map((f) => `${f.operation}: ${f.problems[0]}`).join(" | ");
    throw new Failure(
      `${findings.length} of ${ops.length} operation(s) gave an answer the document does not allow — ${what}`,
      evidence,
      findings,
    );
  }
}

const gets = (loaded: LoadedDocument, secured: boolean) => loaded.operations.filter((o) => o.secured === secured);

export const FUZZ_CHECKS: Check[] = [
  {
    id: "fuzz.document",
    title: "the OpenAPI document loads, resolves, and describes the live endpoint as secured with a documented 2xx",
    cites: "docs/api.md § GET /v1/graph-stats/chart",
    profile: "fuzz",
    async run(ctx) {
      const { loaded } = await fuzzState(ctx);
      const live = loaded.operations.find((o) => o.path === LIVE_PATH);
      if (!live) throw new Failure(`${loaded.source} does not describe GET ${LIVE_PATH}; the fuzzer has no live endpoint to drive`);
      if (!live.secured)
        throw new Failure(`${loaded.source} describes GET ${LIVE_PATH} without a security requirement, but it needs a bearer token`);
      const no2xx = loaded.operations.filter((o) => !Object.keys(o.responses).some((s) => s.startsWith("2")));
      if (no2xx.length) throw new Failure(`operations documenting no 2xx answer: ${no2xx.map((o) => o.id).join(", ")}`);
    },
  },
  {
    id: "fuzz.public",
    title: "generated requests to every public operation (odd parameters, any Authorization) get answers the document allows",
    cites: "docs/api.md § GET /v1/demo/chart, § GET /health, § The envelope",
    profile: "fuzz",
    async run(ctx) {
      const { loaded } = await fuzzState(ctx);
      const ops = gets(loaded, false);
      if (!ops.length) throw new Skip(`${loaded.source} documents no public GET operation`);
      await fuzzAll(ctx, "fuzz.public", ops, ["none", "garbage", "not-a-jwt", "expired"]);
    },
  },
  {
    id: "fuzz.live",
    title:
      "generated requests with a valid token (bounds, invalid values, odd encodings, unknown and repeated parameters) get answers the document allows",
    cites: "docs/api.md § GET /v1/graph-stats/chart, § Errors, § Headers, § Refused before metering",
    profile: "fuzz",
    async run(ctx) {
      const { loaded } = await fuzzState(ctx);
      const ops = gets(loaded, true);
      if (!ops.length) throw new Skip(`${loaded.source} documents no secured GET operation`);
      if (!ctx.options.secret && !ctx.options.token)
        throw new Skip("needs a valid token: pass --token, or --secret for a fresh user per case");
      await fuzzAll(ctx, "fuzz.live", ops, ["valid"], ctx.hasSecret);
    },
  },
  {
    id: "fuzz.credentials",
    title: "generated requests to secured operations without valid credentials are refused with answers the document allows",
    cites: "docs/api.md § Tokens, § Errors, § Headers",
    profile: "fuzz",
    async run(ctx) {
      const { loaded } = await fuzzState(ctx);
      const ops = gets(loaded, true);
      if (!ops.length) throw new Skip(`${loaded.source} documents no secured GET operation`);
      await fuzzAll(ctx, "fuzz.credentials", ops, PROBE_AUTHS);
    },
  },
];
