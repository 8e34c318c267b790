/**
 * Reproducing a fuzz failure: the minimal case as a ready-to-run curl command (a real token written
 * `$TOKEN`, never itself; probes, which no server accepts, written out), and the finding a report carries.
 */
import type { Finding } from "../lib/types.ts";
import { type FuzzCase, describeCase } from "./cases.ts";
import type { Credentials } from "./pacing.ts";

/** `s` as one POSIX-shell word in single quotes. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command for one request: `-g` so brackets stay literal, the URL exactly as sent. A real
 * token stays in the environment (`"Authorization: Bearer $TOKEN"`, double quotes so the shell expands it).
 */
export function curlLine(
  url: string,
  cred: Pick<Credentials, "curlAuthorization" | "metered">,
  headers: Record<string, string> = {},
): string {
  const parts = ["curl", "-sS", "-g", "-i"];
  if (cred.curlAuthorization !== undefined) {
    parts.push("-H", cred.metered ? `"Authorization: ${cred.curlAuthorization}"` : shellQuote(`Authorization: ${cred.curlAuthorization}`));
  }
  for (const [k, v] of Object.entries(headers)) parts.push("-H", shellQuote(`${k}: ${v}`));
  parts.push(shellQuote(url));
  return parts.join(" ");
}

/** The text a reader needs to rerun a finding: the seed to rerun the whole run, and the curl for this case. */
export function findingOf(opts: {
  check: string;
  operation: string;
  seed: number;
  c: FuzzCase;
  url: string;
  cred: Credentials;
  problems: string[];
  casesRun: number;
  shrinks: number;
  path?: string;
}): Finding {
  const curl = curlLine(opts.url, opts.cred, opts.c.headers);
  return {
    check: opts.check,
    operation: opts.operation,
    seed: opts.seed,
    case: describeCase(opts.c),
    problems: opts.problems,
    curl: opts.c.twice ? `${curl}; ${curl}` : curl,
    tokenNote: opts.cred.metered ? "TOKEN: a valid token of a user with a call left this minute (a fresh user)" : undefined,
    casesRun: opts.casesRun,
    shrinks: opts.shrinks,
    path: opts.path,
  };
}
