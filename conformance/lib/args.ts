/** Command-line parsing for the kit; every mistake becomes a UsageError naming the flag and what is allowed. */
import { type KitOptions, UsageError } from "./types.ts";

export const USAGE = `graph-stats-conformance --base-url URL [options]

Black-box checks of a deployment against the graph-stats HTTP interface (docs/api.md).

  --base-url URL          target, e.g. https://api.example.com (required)
  --token JWT             a valid token of user A
  --token-b JWT           a valid token of a second user B
  --expired-token JWT     an expired token
  --secret S              the HS256 secret: the kit mints fresh users and expired, future,
                          forged and alg:none tokens itself (test deployments only)
  --budget N              most metered calls to spend (default 3 without --secret, 300 with)
  --query QUERY           the query of a plain live or demo request, e.g. 'interval=1d' (periods=3 is
                          added for the rolling one); default: built from the required parameters of
                          the deployment's /openapi.json when it serves one, else none

  The token and secret flags may come from the environment instead, so they stay out of the
  command line (npm echoes it, and ps shows it): GRAPH_STATS_CONFORMANCE_TOKEN, _TOKEN_B,
  _EXPIRED_TOKEN and _SECRET. A flag wins over its variable.

  --slow                  may wait real time, honouring Retry-After
  --limits-from-headers   learn the limits from X-RateLimit-* headers instead of expecting 1/min, 30/day
  --profile core|full|fuzz  core = what any implementation must do (default); full adds this
                          implementation's exact forms (401 messages, 404/405, IETF headers, ...);
                          fuzz = only the document-driven fuzz checks
  --fuzz                  add the fuzz checks to the profile: requests generated from the
                          deployment's OpenAPI document, every answer judged against it
  --openapi FILE          fuzz from this OpenAPI 3 JSON document instead of GET /openapi.json
  --seed N                the fuzz seed (printed on every run; the same seed gives the same cases)
  --cases N               generated cases per operation and fuzz check (default 150)
  --only ID,...           run only these check ids (or id prefixes ending in '.')
  --reporter text|json|junit   output format (default text)
  --output FILE           write the report to FILE instead of stdout
  --timeout-ms N          per-request timeout (default 15000)
  --list                  print the check ids and exit
  -h, --help              this text

Exit status: 0 nothing failed, 1 a check failed, 2 bad usage or unreachable target.`;

const VALUE_FLAGS = new Set([
  "--base-url",
  "--token",
  "--token-b",
  "--expired-token",
  "--secret",
  "--budget",
  "--profile",
  "--only",
  "--reporter",
  "--output",
  "--timeout-ms",
  "--openapi",
  "--seed",
  "--cases",
  "--query",
]);
const BOOL_FLAGS = new Set(["--slow", "--limits-from-headers", "--list", "--help", "-h", "--fuzz"]);

export type ParsedArgs = { kind: "run"; options: KitOptions } | { kind: "help" } | { kind: "list"; profile?: string; fuzz?: boolean };

function positiveInt(flag: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new UsageError(`${flag} must be an integer >= ${min}, got '${raw}'`);
  return Number(raw);
}

function boundedInt(flag: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

/** Where a credential flag may come from instead of the command line. */
const ENV_FLAGS: Record<string, string> = {
  "--token": "GRAPH_STATS_CONFORMANCE_TOKEN",
  "--token-b": "GRAPH_STATS_CONFORMANCE_TOKEN_B",
  "--expired-token": "GRAPH_STATS_CONFORMANCE_EXPIRED_TOKEN",
  "--secret": "GRAPH_STATS_CONFORMANCE_SECRET",
};

/** Parse argv (without the program name); credentials may come from `env`. Throws UsageError on any problem. */
export function parseArgs(argv: string[], env: Record<string, string | undefined> = process.env): ParsedArgs {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    if (BOOL_FLAGS.has(name)) {
      if (eq > 0 && arg.startsWith("--")) throw new UsageError(`${name} takes no value`);
      flags.add(name);
    } else if (VALUE_FLAGS.has(name)) {
      const value = eq > 0 && arg.startsWith("--") ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || (value.startsWith("--") && eq < 0)) throw new UsageError(`${name} needs a value`);
      if (values.has(name)) throw new UsageError(`${name} given twice`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option '${arg}' (see --help)`);
    }
  }
  for (const [flag, name] of Object.entries(ENV_FLAGS)) {
    const fromEnv = env[name];
    if (!values.has(flag) && fromEnv !== undefined && fromEnv !== "") values.set(flag, fromEnv);
  }
  if (flags.has("--help") || flags.has("-h")) return { kind: "help" };
  if (flags.has("--list")) return { kind: "list", profile: values.get("--profile"), ...(flags.has("--fuzz") ? { fuzz: true } : {}) };

  const baseRaw = values.get("--base-url");
  if (!baseRaw) throw new UsageError("--base-url is required, e.g. --base-url http://127.0.0.1:8080");
  let base: URL;
  try {
    base = new URL(baseRaw);
  } catch {
    throw new UsageError(`--base-url must be an absolute http(s) URL, got '${baseRaw}'`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new UsageError(`--base-url must use http or https, got '${base.protocol}'`);
  }
  const profile = values.get("--profile") ?? "core";
  if (profile !== "core" && profile !== "full" && profile !== "fuzz") {
    throw new UsageError(`--profile must be core, full or fuzz, got '${profile}'`);
  }
  const fuzzing = profile === "fuzz" || flags.has("--fuzz");
  for (const flag of ["--openapi", "--seed", "--cases"]) {
    if (values.has(flag) && !fuzzing) throw new UsageError(`${flag} applies to fuzzing: add --fuzz (or --profile fuzz)`);
  }
  const openapi = values.get("--openapi");
  if (openapi !== undefined && openapi.length === 0) throw new UsageError("--openapi needs a file name");
  const reporter = values.get("--reporter") ?? "text";
  if (reporter !== "text" && reporter !== "json" && reporter !== "junit") {
    throw new UsageError(`--reporter must be text, json or junit, got '${reporter}'`);
  }
  const secret = values.get("--secret");
  if (secret !== undefined && secret.length === 0) throw new UsageError("--secret must not be empty");
  for (const flag of ["--token", "--token-b", "--expired-token"]) {
    const t = values.get(flag);
    if (t !== undefined && t.split(".").length !== 3) throw new UsageError(`${flag} must be a compact JWT (three dot-separated parts)`);
  }
  const query = values.get("--query")?.replace(/^\?/, "");
  if (query !== undefined && /[#\s]/.test(query))
    throw new UsageError(`--query must be a URL query without spaces or '#' (percent-encode them), got '${query}'`);
  const onlyRaw = values.get("--only");
  const only = onlyRaw
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (onlyRaw !== undefined && only!.length === 0) throw new UsageError("--only needs at least one check id");

  return {
    kind: "run",
    options: {
      baseUrl: base.href.replace(/\/+$/, ""),
      token: values.get("--token"),
      tokenB: values.get("--token-b"),
      expiredToken: values.get("--expired-token"),
      secret,
      budget: values.has("--budget") ? positiveInt("--budget", values.get("--budget")!, 0) : secret ? 300 : 3,
      slow: flags.has("--slow"),
      profile,
      only,
      reporter,
      output: values.get("--output"),
      limitsFromHeaders: flags.has("--limits-from-headers"),
      timeoutMs: values.has("--timeout-ms") ? positiveInt("--timeout-ms", values.get("--timeout-ms")!, 1) : 15000,
      ...(query !== undefined ? { query } : {}),
      ...(flags.has("--fuzz") ? { fuzz: true } : {}),
      ...(openapi !== undefined ? { openapi } : {}),
      // fast-check seeds are 32-bit: a larger one would silently wrap to another run's cases.
      ...(values.has("--seed") ? { seed: boundedInt("--seed", values.get("--seed")!, 0, 2 ** 32 - 1) } : {}),
      ...(values.has("--cases") ? { cases: boundedInt("--cases", values.get("--cases")!, 1, 100_000) } : {}),
    },
  };
}
