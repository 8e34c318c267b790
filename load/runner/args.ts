/** The runner's own options, taken out of `npm run load -- <script> [options] [k6 run arguments]`. */

/** Scripts that spread their load over several base URLs (BASE_URLS). */
export const MULTI_INSTANCE_SCRIPTS = ["limits", "soak"];

export interface RunnerArgs {
  /** Server processes to start on the one store (`--instances N`, default 1). */
  instances: number;
  /** Forwarded to the servers as GRAPH_STATS_DATABASE_URL (`--database-url URL`). */
  databaseUrl: string | null;
  /** Everything else, passed to `k6 run` unchanged. */
  k6Args: string[];
}

/**
 * Takes `--instances N` / `--instances=N` and `--database-url URL` / `--database-url=URL` out of the
 * arguments (k6 has neither flag), leaving the rest for k6 in order. Throws a usage message on bad values.
 */
export function runnerArgs(args: string[]): RunnerArgs {
  let instances = 1;
  let databaseUrl: string | null = null;
  const k6Args: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.startsWith("--instances") ? "--instances" : a.startsWith("--database-url") ? "--database-url" : null;
    if (name === null || (a !== name && !a.startsWith(`${name}=`))) {
      k6Args.push(a);
      continue;
    }
    const value = a === name ? args[++i] : a.slice(name.length + 1);
    if (value === undefined || value === "") throw new Error(`${name} needs a value`);
    if (name === "--database-url") databaseUrl = value;
    else if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 16) instances = Number(value);
    else throw new Error(`--instances must be an integer from 1 to 16, got '${value}'`);
  }
  return { instances, databaseUrl, k6Args };
}

/** Refuses several instances for a script that would only load the first of them. */
export function requireMultiInstanceScript(script: string, instances: number): void {
  if (instances > 1 && !MULTI_INSTANCE_SCRIPTS.includes(script)) {
    throw new Error(
      `--instances ${instances}: load/${script}.js targets one base URL; only ${MULTI_INSTANCE_SCRIPTS.join(" and ")} spread load over several instances`,
    );
  }
}
