/**
 * A long-running Python reference process answering one JSON line per request line, so a bench
 * can alternate our runs with its runs (the machine's speed drifts within seconds).
 */
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

/** `**median x** (min x–max x)` of the rounds' ratios. */
export function ratioCell(ratios: number[]): string {
  const s = [...ratios].sort((a, b) => a - b);
  return `**${median(s).toFixed(0)}x** (${s[0]!.toFixed(0)}x–${s[s.length - 1]!.toFixed(0)}x)`;
}

/** A table row: name, ours median (min), theirs median (min), the ratio cell, then `extra` cells. */
export function sideBySideRow(name: string, a: SideBySide, ms: (x: number) => string, ...extra: string[]): string {
  const cell = (xs: number[]) => `${ms(median(xs))} (${ms(Math.min(...xs))}) ms`;
  return `| ${[name, cell(a.ours), cell(a.theirs), ratioCell(a.ratios), ...extra].join(" | ")} |`;
}
