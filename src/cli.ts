#!/usr/bin/env bun
/**
 * `graph-stats` — one program, several commands (README.md § CLI). The same entry runs from source
 * (`bun src/cli.ts …`) and as the compiled binary.
 */
import { runCli } from "./cli/run.ts";

process.exitCode = await runCli(process.argv.slice(2));
