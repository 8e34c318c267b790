#!/usr/bin/env bun
/** graph-stats-conformance: black-box checks of a deployment against its documented HTTP interface (docs/api.md). Exit 0/1/2. */
import { ALL_CHECKS, inProfile } from "./checks/index.ts";
import { parseArgs, USAGE } from "./lib/args.ts";
import { exitCode, runKit, summaryLine } from "./lib/runner.ts";
import { UsageError } from "./lib/types.ts";
import { REPORTERS } from "./reporters/index.ts";

/** Run the CLI with `argv` (no program name); returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    if (parsed.kind === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (parsed.kind === "list") {
      // Without --profile, list everything; with one, what a run of it would select.
      const all = parsed.profile === undefined;
      const profile = parsed.profile === "fuzz" || parsed.profile === "core" ? parsed.profile : "full";
      for (const c of ALL_CHECKS) {
        if (all || inProfile(c, profile, parsed.fuzz)) process.stdout.write(`${c.id}\t${c.profile}\t${c.cites}\t${c.title}\n`);
      }
      return 0;
    }
    const { options } = parsed;
    const report = await runKit(options);
    const out = REPORTERS[options.reporter](report);
    if (options.output) {
      await Bun.write(options.output, out);
      process.stdout.write(`${summaryLine(report)}\n`);
    } else process.stdout.write(out);
    return exitCode(report);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`graph-stats-conformance: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
