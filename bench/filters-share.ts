/**
 * One process's measure of what denoise=mp&spectrum=true adds to a rolling-30 NIFTY-50 request:
 * the engine alone (computeChart, plain and filtered alternating in blocks of 5, the median of BLOCKS
 * blocks' ratios) and the whole request (filters-request.ts). Run as a script it prints them as one
 * JSON line; signal-noise.bench.ts runs it in several fresh processes, because on a shared VM one
 * process's figure moves by several points from the next one's (JIT and heap state), more than
 * blocks within a process do.
 */
import { computeChart } from "../src/engine/chart.ts";
import { loadNifty } from "../test/support/nifty.ts";
import { chartParams as params } from "./engine-params.ts";
import { filtersOnRequest } from "./filters-request.ts";
import { median } from "./median.ts";
import { timeRuns } from "./python-side.ts";

/** Alternating blocks per side and process: fewer left one process's figure moving by several points on this VM. */
export const BLOCKS = 40;

export interface FiltersShare {
  /** Engine, ms per request. */
  plain: number[];
  filtered: number[];
  /** Median of the blocks' ratios, minus one. */
  engineAdded: number;
  request: { plain: number[]; filtered: number[]; added: number; bytes: { plain: number; filtered: number } };
}

async function measure(asof: string): Promise<FiltersShare> {
  const nifty = loadNifty();
  const plain = params(`asof=${asof}&periods=30`);
  const filtered = params(`asof=${asof}&periods=30&denoise=mp&spectrum=true`);
  for (let r = 0; r < 10; r++) {
    computeChart(nifty, plain);
    computeChart(nifty, filtered);
  }
  const ratios: number[] = [];
  const out = { plain: [] as number[], filtered: [] as number[] };
  for (let r = 0; r < BLOCKS; r++) {
    const p = timeRuns(() => computeChart(nifty, plain), 5);
    const f = timeRuns(() => computeChart(nifty, filtered), 5);
    out.plain.push(...p);
    out.filtered.push(...f);
    ratios.push(median(f) / median(p));
  }
  const whole = await filtersOnRequest(asof, BLOCKS);
  return {
    ...out,
    engineAdded: median(ratios) - 1,
    request: { plain: whole.plain, filtered: whole.filtered, added: median(whole.ratios) - 1, bytes: whole.bytes },
  };
}

/** `processes` fresh runs of this file, one after another (each inherits the caller's CPU pinning). */
export function filtersShareInProcesses(asof: string, processes: number): FiltersShare[] {
  const runs: FiltersShare[] = [];
  for (let p = 0; p < processes; p++) {
    const child = Bun.spawnSync([process.execPath, import.meta.path, asof], { stdout: "pipe", stderr: "inherit" });
    if (child.exitCode !== 0) throw new Error(`filters-share.ts exited with ${child.exitCode}`);
    runs.push(JSON.parse(child.stdout.toString().trim().split("\n").at(-1)!) as FiltersShare);
  }
  return runs;
}

if (import.meta.main) console.log(JSON.stringify(await measure(process.argv[2] ?? "2024-06-28")));
