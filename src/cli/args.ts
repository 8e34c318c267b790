/**
 * Flag parsing shared by every command (node:util parseArgs, strict: an unknown flag is an error).
 * Config flags are derived from src/config.ts's schema; command flags are returned as they are.
 */
import { parseArgs } from "node:util";
import { CONFIG_OPTIONS, configFromFlags, loadConfig, type Config } from "../config.ts";

/** Flags of the commands themselves; every setting's flag comes from CONFIG_OPTIONS (args.test.ts: no name is both). */
export const COMMAND_OPTIONS = {
  universe: { type: "string" },
  interval: { type: "string" },
  "default-offset": { type: "string" },
  map: { type: "string", multiple: true },
  price: { type: "string" },
  replace: { type: "boolean" },
  purge: { type: "boolean" },
  user: { type: "string", multiple: true },
  users: { type: "string" },
  prefix: { type: "string" },
  ttl: { type: "string" },
  email: { type: "string" },
  json: { type: "boolean" },
  "per-minute": { type: "string" },
  "per-day": { type: "string" },
  reset: { type: "boolean" },
  days: { type: "string" },
  on: { type: "boolean" },
  off: { type: "boolean" },
  limit: { type: "string" },
  offset: { type: "string" },
  target: { type: "string" },
  actor: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  format: { type: "string" },
  status: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

type OptionSpec = { type: "string" | "boolean"; multiple?: boolean; short?: string };

const OPTIONS: Record<string, OptionSpec> = {
  ...Object.fromEntries(CONFIG_OPTIONS.map((o) => [o.flag, { type: o.switchTo === undefined ? "string" : "boolean" }])),
  ...COMMAND_OPTIONS,
};

/** A command flag's value as parseArgs returns it. */
type FlagValue<O> = O extends { type: "boolean" } ? boolean : O extends { multiple: true } ? string[] : string;

export interface ParsedArgs {
  positionals: string[];
  flags: { -readonly [K in keyof typeof COMMAND_OPTIONS]?: FlagValue<(typeof COMMAND_OPTIONS)[K]> };
  config: Config;
  /** The environment the configuration was read from (runCli's, which is process.env unless a caller passes its own). */
  env: Record<string, string | undefined>;
}

/** A usage problem: printed with a hint and exit code 2. */
export class UsageError extends Error {}

export function parseCli(argv: string[], env: Record<string, string | undefined>): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values as Record<string, unknown>;
  let config: Config;
  try {
    config = loadConfig(configFromFlags(v), env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { positionals: parsed.positionals, flags: v as ParsedArgs["flags"], config, env };
}

/** A positive integer flag, or a UsageError naming it. */
export function intFlag(name: string, value: string | undefined, min = 1, max = 1_000_000_000): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${value}'`);
  return n;
}
