/**
 * A long-running Python reference process answering one JSON line per request line, so a bench
 * can alternate our runs with its runs (the machine's speed drifts within seconds).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { median } from "./median.ts";

export class PythonSide {
  private proc: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
  private reader: { read(): Promise<{ value?: Uint8Array; done?: boolean }> };
  private buffered = "";

  constructor(
    args: string[],
    private readonly hint: string,
  ) {
    this.proc = Bun.spawn(["/usr/bin/python3", ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.reader = this.proc.stdout.getReader();
  }

  async line<T>(): Promise<T> {
    for (;;) {
      const nl = this.buffered.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        return JSON.parse(line) as T;
      }
      const { value, done } = await this.reader.read();
      if (done) {
        const err = await new Response(this.proc.stderr).text();
        throw new Error(`${this.hint}: ${err.slice(-500)}`);
      }
      this.buffered += new TextDecoder().decode(value);
    }
  }

  /** Sends one request line and returns its times in ms. */
  async times(request: string): Promise<number[]> {
    this.proc.stdin.write(`${request}\n`);
    this.proc.stdin.flush();
    return (await this.line<{ times_ms: number[] }>()).times_ms;
  }

  close(): void {
    this.proc.stdin.end();
  }
}

/** Wall times in ms of `runs` calls of `fn`. */
export function timeRuns(fn: () => unknown, runs: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export interface SideBySide {
  ours: number[];
  theirs: number[];
  /** One per round: the reference's median over ours. */
  ratios: number[];
}

/**
 * Alternates blocks of `perBlock` runs of ours with `blocks` Python requests (ours, theirs, …,
 * ours), `rounds` times; one ratio per round, so a drift of the machine's speed within a round
 * moves both sides.
 */
export async function sideBySide(
  py: PythonSide,
  ours: () => unknown,
  request: string,
  o: { rounds: number; perBlock: number; blocks?: number },
): Promise<SideBySide> {
  const acc: SideBySide = { ours: [], theirs: [], ratios: [] };
  for (let round = 0; round < o.rounds; round++) {
    const mine: number[] = [];
    const theirs: number[] = [];
    for (let b = 0; b < (o.blocks ?? 1); b++) {
      mine.push(...timeRuns(ours, o.perBlock));
      theirs.push(...(await py.times(request)));
    }
    mine.push(...timeRuns(ours, o.perBlock));
    acc.ours.push(...mine);
    acc.theirs.push(...theirs);
    acc.ratios.push(median(theirs) / median(mine));
  }
  return acc;
}

/** `**median x** (min x–max x)` of the rounds' ratios, with `digits` decimals. */
export function ratioCell(ratios: number[], digits = 0): string {
  const s = [...ratios].sort((a, b) => a - b);
  return `**${median(s).toFixed(digits)}x** (${s[0]!.toFixed(digits)}x–${s[s.length - 1]!.toFixed(digits)}x)`;
}

/** A table row: name, ours median (min), theirs median (min), the ratio cell, then `extra` cells. */
export function sideBySideRow(name: string, a: SideBySide, ms: (x: number) => string, ...extra: string[]): string {
  const cell = (xs: number[]) => `${ms(median(xs))} (${ms(Math.min(...xs))}) ms`;
  return `| ${[name, cell(a.ours), cell(a.theirs), ratioCell(a.ratios), ...extra].join(" | ")} |`;
}

/**
 * src/engine as it was at `commit` (git archive into node_modules/.cache, so its imports resolve as
 * the engine's do); returns the directory to import its modules from, for a before/after in one run.
 */
export function engineAt(commit: string): string {
  const root = join(import.meta.dir, "..");
  const sha = Bun.spawnSync(["git", "rev-parse", "--short", commit], { cwd: root }).stdout.toString().trim();
  if (sha === "") throw new Error(`engineAt: no commit ${commit}`);
  const dir = join(root, "node_modules/.cache/engine-at", sha);
  if (!existsSync(join(dir, "src/engine"))) {
    mkdirSync(dir, { recursive: true });
    const tar = Bun.spawnSync(["sh", "-c", `git archive ${sha} src/engine | tar -x -C '${dir}'`], { cwd: root });
    if (tar.exitCode !== 0) throw new Error(`engineAt: git archive ${sha} failed: ${tar.stderr.toString()}`);
  }
  return join(dir, "src/engine");
}

/**
 * Alternating blocks of two functions, `perBlock` runs each, `rounds` times, in the order a b, b a,
 * a b, … (so neither always follows the other's garbage): per round a's median over b's (b's speed-up).
 */
export function beforeAfter(
  a: () => unknown,
  b: () => unknown,
  o: { rounds: number; perBlock: number },
): { a: number[]; b: number[]; ratios: number[] } {
  const out = { a: [] as number[], b: [] as number[], ratios: [] as number[] };
  for (let r = 0; r < o.rounds; r++) {
    let ta: number[];
    let tb: number[];
    if (r % 2 === 0) {
      ta = timeRuns(a, o.perBlock);
      tb = timeRuns(b, o.perBlock);
    } else {
      tb = timeRuns(b, o.perBlock);
      ta = timeRuns(a, o.perBlock);
    }
    out.a.push(...ta);
    out.b.push(...tb);
    out.ratios.push(median(ta) / median(tb));
  }
  return out;
}
