/** Locating k6 and building its command line for a load run. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { durationSeconds } from "../lib/env.js";
import { limitsForRun } from "../lib/live.js";

/** Scripts `npm run load` knows by name. */
export const SCRIPTS = ["smoke", "demo", "limits", "auth", "soak", "compute", "live"] as const;

/** Exit code when k6 is not available. */
export const EXIT_NO_K6 = 3;

/**
 * A k6 binary that may sit beside a checkout of this repository in a development workspace. The repo
 * never requires it: it is only the last place looked.
 */
export function workspaceK6(root: string): string {
  return resolve(root, "..", "shared", "tools", "k6", "k6");
}

/** `K6` from the environment (a path), else `k6` on PATH, else the first of `fallbacks` that exists, else null. */
export function findK6(env: Record<string, string | undefined>, fallbacks: string[] = []): string | null {
  if (env.K6) return existsSync(env.K6) ? env.K6 : null;
  return Bun.which("k6", { PATH: env.PATH ?? "" }) ?? fallbacks.find((f) => existsSync(f)) ?? null;
}

/** What to tell a user without k6, including how to run the script by hand. */
export function noK6Message(script: string): string {
  return [
    `k6 was not found (looked for $K6, then 'k6' on PATH), so load/${script}.js cannot run here.`,
    "Install k6 0.46 or later (https://grafana.com/docs/k6/latest/set-up/install-k6/) and run again,",
    "or point K6=/path/to/k6 at a k6 binary. To run it by hand against a server you started:",
    `  k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=$PWD/tokens.json load/${script}.js`,
  ].join("\n");
}

/** The `-e` values given in the k6 arguments, so the runner can mint enough tokens for `-e VUS=N`. */
export function envArgs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = a === "-e" || a === "--env" ? args[++i] : a.startsWith("--env=") ? a.slice(6) : null;
    if (!value) continue;
    const eq = value.indexOf("=");
    if (eq > 0) out[value.slice(0, eq)] = value.slice(eq + 1);
  }
  return out;
}

/** `k6 run` arguments: ours first, so the user's own `-e` values (later on the line) win. */
export function k6RunArgs(scriptPath: string, vars: Record<string, string>, userArgs: string[]): string[] {
  const env = Object.entries(vars).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  return ["run", ...env, ...userArgs, scriptPath];
}

/** What the runner gives the server and the token mint unless LOAD_USERS / LOAD_RATE_PER_* say otherwise. */
export interface RunDefaults {
  users: number;
  ratePerMinute: number;
  ratePerDay: number;
}

/**
 * The runner's defaults for `script` given the user's `-e` values: 100 tokens, 2/minute and 1000/day, except
 * for `live`, whose users must never be refused: its USERS (1000) tokens and limits that let RATE (500/s)
 * round-robin over them for DURATION (1m) pass (lib/live.js `limitsForRun`: 63/minute, 1000/day).
 * Values the script would refuse fall back to its defaults here; the script reports them itself.
 */
export function runDefaults(script: string, userEnv: Record<string, string>): RunDefaults {
  if (script !== "live") return { users: 100, ratePerMinute: 2, ratePerDay: 1000 };
  const int = (name: string, fallback: number) =>
    /^\d+$/.test(userEnv[name] ?? "") && Number(userEnv[name]) > 0 ? Number(userEnv[name]) : fallback;
  let seconds = 60;
  try {
    if (userEnv.DURATION) seconds = durationSeconds(userEnv.DURATION);
  } catch {
    // k6 refuses the bad DURATION with its own message.
  }
  const users = int("USERS", 1000);
  return { users, ...limitsForRun({ rate: int("RATE", 500), users, seconds }) };
}
