/**
 * In-process A/B of the engine's micro-optimisations: `npx bun bench/engine-ab.ts [rounds]`.
 *
 * Each variant is a copy of src/engine with one trick flipped — a kept trick to its plain form, a
 * reverted one back to its tricked form (exact text substitutions below; the copy fails loudly if
 * the text is gone) — imported beside a plain copy of the engine, so all run in one process with
 * their own JIT state and must give the engine's result bit for bit. Every round runs, per graph
 * method, the 24 as-ofs of bench/engine.bench.ts three times per variant in a rotated order, so
 * the branch predictors cannot learn one graph and the machine's drift hits all variants alike.
 * Results go to docs/engine.md; a trick stays only if it saves ≥ 5% of the whole snapshot of some
 * graph method.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { computeChart } from "../src/engine/chart.ts";
import type { ChartParams, GraphMethod, SeriesInput } from "../src/engine/types.ts";
import { chartParams } from "./engine-params.ts";
import { median } from "./median.ts";
import { loadNifty } from "../test/support/nifty.ts";

const ROOT = join(import.meta.dir, "..");
const ENGINE = join(ROOT, "src/engine");
// Under node_modules so the copies resolve the engine's packages like the original does.
const WORK = join(ROOT, "node_modules/.cache/engine-ab");

/**
 * One trick: [file under src/engine, its plain text, its tricked text]; kept: whether the engine
 * has the tricked form (the variant is then the plain one, else the tricked one).
 */
interface Trick {
  kept: boolean;
  edits: [string, string, string][];
}

const TRICKS: Record<string, Trick> = {
  "Louvain: branch-free community-is-new test": {
    kept: false,
    edits: [
      [
        "louvain-level.ts",
        `        if (mark[c] !== stamp) {
          mark[c] = stamp;
          touched[nt++] = c;
        }`,
        `        const fresh = +(mark[c] !== stamp);
        mark[c] = stamp;
        touched[nt] = c;
        nt += fresh;`,
      ],
    ],
  },
  "Louvain: branch-free aggregation": {
    kept: false,
    edits: [
      [
        "louvain-level.ts",
        `      if (cv === cu) continue;
      // present, not acc > 0: an edge of weight 0 (rho = 0 in a complete graph) still links.
      const cell = row + cv;
      if (present[cell] === 0) {
        present[cell] = 1;
        rowSize[cu]++;
      }
      acc[cell] += level.wt[p];`,
        `      const other = +(cv !== cu);
      const cell = row + cv;
      rowSize[cu] += other & (present[cell] ^ 1);
      present[cell] |= other;
      acc[cell] += level.wt[p] * other;`,
      ],
    ],
  },
  "modularity: branch-free inner sum": {
    kept: false,
    edits: [["modularity.ts", "if (a === b) inner[a] += g.w[e];", "inner[a] += g.w[e] * +(a === b);"]],
  },
  "Dijkstra: sorted frontier up to 96 nodes (else buckets)": {
    kept: true,
    edits: [["metrics/shortest-paths.ts", "export const SORTED_FRONTIER_MAX = -1;", "export const SORTED_FRONTIER_MAX = 96;"]],
  },
};

/** The variant's edits as [file, text now, replacement]: kept tricks go plain, reverted ones come back. */
function patchesOf(t: Trick): Patch[] {
  return t.edits.map(([file, plain, tricked]) => (t.kept ? [file, tricked, plain] : [file, plain, tricked]));
}

type Patch = [string, string, string];

function copyEngine(name: string, patches: Patch[]): string {
  const dir = join(WORK, name.replace(/[^a-z0-9]+/gi, "-"));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(ENGINE, dir, { recursive: true, filter: (src) => !src.endsWith(".test.ts") && !src.includes("/fixtures") });
  for (const [file, now, plain] of patches) {
    const path = join(dir, file);
    const text = readFileSync(path, "utf8");
    if (!text.includes(now)) throw new Error(`${name}: the text to replace is not in src/engine/${file} any more`);
    writeFileSync(path, text.replace(now, plain));
  }
  return dir;
}

type Compute = (input: SeriesInput, p: ChartParams) => unknown;
// The engine itself is timed from a copy too, so all sides are loaded the same way.
const variants: { name: string; compute: Compute }[] = [];
const ALL_PLAIN = Object.values(TRICKS)
  .filter((t) => t.kept)
  .flatMap(patchesOf);
const sides: [string, Patch[]][] = [
  ["engine", []],
  ...Object.entries(TRICKS).map(([name, t]): [string, Patch[]] => [name, patchesOf(t)]),
  ["every kept trick plain", ALL_PLAIN],
];
for (const [name, patches] of sides) {
  const dir = copyEngine(name, patches);
  variants.push({ name, compute: (await import(join(dir, "chart.ts"))).computeChart as Compute });
}

const ROUNDS = Number(process.argv[2] ?? 20);
const METHODS: GraphMethod[] = ["knn", "threshold", "complete", "tmfg", "mst"];
const ASOFS = [2021, 2022, 2023, 2024].flatMap((y) => ["01", "03", "05", "07", "09", "11"].map((m) => `${y}-${m}-28`));
const nifty = loadNifty();

// The variants must give the engine's answer bit for bit (they are only allowed to be slower).
for (const method of METHODS) {
  for (const d of ASOFS) {
    const p = chartParams(`asof=${d}&graph_method=${method}`);
    const want = JSON.stringify(computeChart(nifty, p));
    for (const v of variants) if (JSON.stringify(v.compute(nifty, p)) !== want) throw new Error(`${v.name} differs at ${d} ${method}`);
  }
}

const params = new Map(METHODS.map((m) => [m, ASOFS.map((d) => chartParams(`asof=${d}&graph_method=${m}`))]));
const runAll = (v: (typeof variants)[number], method: GraphMethod): number => {
  const t0 = performance.now();
  for (const p of params.get(method)!) v.compute(nifty, p);
  return performance.now() - t0;
};
for (let warm = 0; warm < 10; warm++) for (const method of METHODS) for (const v of variants) runAll(v, method);

// ratios[variant][method]: per round, the variant's time over the engine's.
const ratios = variants.map(() => new Map(METHODS.map((m) => [m, [] as number[]])));
const engineMs = new Map(METHODS.map((m) => [m, [] as number[]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const method of METHODS) {
    const times = new Float64Array(variants.length);
    for (let pass = 0; pass < 3; pass++) {
      for (let q = 0; q < variants.length; q++) {
        const at = (q + round + pass) % variants.length;
        times[at] += runAll(variants[at], method);
      }
    }
    engineMs.get(method)!.push(times[0] / 3 / ASOFS.length);
    variants.forEach((_, at) => ratios[at].get(method)!.push(times[at] / times[0]));
  }
}

/** Plain form's time over the tricked form's, per round: + means the trick saves that much. */
const plainOverTrick = (i: number, m: GraphMethod): number[] => {
  const kept = i > Object.keys(TRICKS).length || Object.values(TRICKS)[i - 1].kept;
  return ratios[i].get(m)!.map((r) => (kept ? r : 1 / r));
};
const quartile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.round(q * (xs.length - 1))];
const pct = (r: number) => `${r >= 1 ? "+" : "−"}${Math.abs((r - 1) * 100).toFixed(1)}%`;
const cell = (xs: number[]) => `${pct(median(xs))} (${pct(quartile(xs, 0.25))} … ${pct(quartile(xs, 0.75))})`;
const lines = [
  `In-process A/B, ${ROUNDS} rounds × 3 passes over ${ASOFS.length} NIFTY-50 as-ofs (lookback 60, all metrics, communities),`,
  `${cpus()[0]?.model ?? "unknown CPU"}, Bun ${Bun.version}, ${new Date().toISOString().slice(0, 10)}.`,
  "Whole-snapshot time of the plain form over the tricked form: median over rounds (quartiles); + = the trick saves time.",
  "",
  `| trick | in the engine | ${METHODS.join(" | ")} |`,
  `|---|---|${METHODS.map(() => "---:").join("|")}|`,
  `| (engine, ms per snapshot) | | ${METHODS.map((m) => median(engineMs.get(m)!).toFixed(3)).join(" | ")} |`,
  ...variants.slice(1).map((v, k) => {
    const i = k + 1;
    const t = TRICKS[v.name];
    return `| ${v.name} | ${t === undefined ? "" : t.kept ? "kept" : "reverted"} | ${METHODS.map((m) => cell(plainOverTrick(i, m))).join(" | ")} |`;
  }),
];
console.log(lines.join("\n"));
rmSync(WORK, { recursive: true, force: true });
