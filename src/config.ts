/**
 * Configuration: command-line flags over GRAPH_STATS_* environment variables over defaults
 * (README.md § Configuration). Validated with zod so a bad value stops the program with a clear
 * message.
 */
import { availableParallelism } from "node:os";
import { z } from "zod";
import { addressEntryProblem } from "./address-list.ts";

const intFrom = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be an integer from ${min} to ${max}` })
    .int(`${name} must be an integer from ${min} to ${max}`)
    .min(min, `${name} must be an integer from ${min} to ${max}`)
    .max(max, `${name} must be an integer from ${min} to ${max}`);

const list = z.string().transform((s) =>
  s
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);

const boolish = z.union([z.boolean(), z.enum(["true", "false", "1", "0"]).transform((s) => s === "true" || s === "1")], {
  error: (issue) => `must be true, false, 1 or 0, got '${String(issue.input)}'`,
});

export const CONFIG_SCHEMA = z.object({
  port: intFrom("port", 0, 65535).default(8080),
  host: z.string().min(1).default("0.0.0.0"),
  db: z.string().min(1).default("./data/graph-stats.sqlite"),
  /** PostgreSQL (README.md § PostgreSQL): when set, everything but the embedded sample lives there, and it wins over `db`. */
  databaseUrl: z
    .string()
    .refine(
      (u) => /^postgres(ql)?:\/\/[^\s]+$/i.test(u),
      "database url must be a postgres:// or postgresql:// URL (e.g. postgres://user:password@host:5432/graph_stats)",
    )
    .optional(),
  /** Connections each process keeps to PostgreSQL. */
  dbPool: intFrom("db pool", 1, 1000).default(10),
  /**
   * Longest a PostgreSQL statement may run (lock waits included) before the request becomes a 503;
   * on SQLite, how long an admission waits (off the event loop) for another process's write lock.
   */
  dbStatementTimeout: z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const m = /^\s*(\d+)\s*(ms|s)?\s*$/i.exec(String(v));
      const ms = m ? Number(m[1]) * (m[2]?.toLowerCase() === "s" ? 1000 : 1) : NaN;
      if (!(ms >= 1 && ms <= 3_600_000)) {
        ctx.addIssue({
          code: "custom",
          message: `db statement timeout must be milliseconds (2000) or seconds (2s), from 1 ms to 1 hour, got '${v}'`,
        });
        return z.NEVER;
      }
      return ms;
    })
    .default(2000),
  jwtSecret: z.string().min(16, "jwt secret must be at least 16 characters").optional(),
  jwtPreviousSecrets: list
    .refine((all) => all.every((s) => s.length >= 16), "each previous jwt secret must be at least 16 characters, like the secret")
    .default([]),
  tokenTtl: z.string().default("24h"),
  ratePerMinute: intFrom("rate per minute", 1, 1_000_000).default(1),
  ratePerDay: intFrom("rate per day", 1, 100_000_000).default(30),
  defaultUniverse: z.string().min(1).default("sample"),
  corsOrigins: list.default([]),
  logLevel: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  sample: boolish.default(true),
  workers: intFrom("workers", 1, 64).default(1),
  /**
   * One per core: the event loop mostly waits while threads compute, and with one core left to it a
   * 2-core machine had no idle thread to split a heavy request into (README.md § Operations, Splitting heavy requests).
   */
  computeThreads: intFrom("compute threads", 0, 64).default(Math.max(1, Math.min(8, availableParallelism()))),
  /** Audit rows (request_log, per-day and unauthenticated counts) older than this many days are pruned. */
  auditRetentionDays: intFrom("audit retention days", 1, 36_500).default(90),
  /** Upper bound on the result cache's memory (MiB of cached JSON, rendered csv/ndjson bodies and overhead). */
  cacheMb: intFrom("cache mb", 0, 65536).default(128),
  /** Upper bound on the series cache's memory (MiB of loaded bars, split between the threads that load them; src/market/series-cache.ts). */
  seriesCacheMb: intFrom("series cache mb", 0, 65536).default(64),
  /** Live requests estimated above this cost (milliseconds of one core) are refused before admission (src/compute/request-cost.ts). */
  costBudget: intFrom("cost budget", 1, 1_000_000_000).default(10_000),
  /** Bound on the estimated cost (ms of one core) of the live computations a process has admitted and not yet answered. */
  admittedCost: intFrom("admitted cost", 1, 1_000_000_000).default(40_000),
  /** Bound on their estimated memory, MiB (src/compute/request-memory.ts). */
  admittedMb: intFrom("admitted mb", 16, 1_048_576).default(1024),
  /** The address users reach the service at; the dashboard's sign-in redirect is `{publicUrl}/auth/callback`. */
  publicUrl: z.url({ protocol: /^https?$/, error: "public url must be an http(s) URL" }).optional(),
  oidcIssuer: z.url({ protocol: /^https?$/, error: "oidc issuer must be an http(s) URL" }).optional(),
  oidcClientId: z.string().min(1).optional(),
  oidcClientSecret: z.string().min(1).optional(),
  /** `serve --dev`: the embedded development identity provider, on loopback only. */
  dev: boolish.default(false),
  /** The development identity provider's port (default: the service's port + 1). */
  devIdpPort: intFrom("dev idp port", 0, 65535).optional(),
  /** Who may read /metrics: addresses and CIDR blocks, or `*`; loopback by default. */
  metricsAllow: list.default(["127.0.0.1", "::1"]),
  /**
   * Proxies whose X-Forwarded-For names the client (addresses and CIDR blocks), for per-client
   * limits behind a load balancer; none by default, so a header a client writes is never believed.
   */
  trustedProxies: list
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = addressEntryProblem(entry);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }
    })
    .default([]),
});

export type Config = z.infer<typeof CONFIG_SCHEMA>;

/** Option names (camelCase) → flag (`--rate-per-minute`) and env (`GRAPH_STATS_RATE_PER_MINUTE`). */
export const CONFIG_KEYS = Object.keys(CONFIG_SCHEMA.shape) as (keyof Config)[];

export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function envName(key: string): string {
  return `GRAPH_STATS_${flagName(key).replace(/-/g, "_").toUpperCase()}`;
}

/** How one setting is given: the flag (without `--`) and the environment variable. */
export interface ConfigOption {
  key: keyof Config;
  flag: string;
  env: string;
  /** A boolean's flag takes no value and sets the opposite of its default: `--dev`, `--no-sample`. */
  switchTo?: boolean;
}

const DEFAULTS = CONFIG_SCHEMA.parse({}) as Record<string, unknown>;

/** Every setting's flag and environment name, derived from CONFIG_SCHEMA: the one table the CLI parses and documents. */
export const CONFIG_OPTIONS: readonly ConfigOption[] = CONFIG_KEYS.map((key) => {
  const d = DEFAULTS[key];
  if (typeof d !== "boolean") return { key, flag: flagName(key), env: envName(key) };
  return { key, flag: `${d ? "no-" : ""}${flagName(key)}`, env: envName(key), switchTo: !d };
});

export const CONFIG_OPTION = Object.fromEntries(CONFIG_OPTIONS.map((o) => [o.key, o])) as Record<keyof Config, ConfigOption>;

/** The config flags parseArgs returned (keyed by flag), as loadConfig's camelCase input; absent switches stay unset. */
export function configFromFlags(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of CONFIG_OPTIONS) {
    const v = values[o.flag];
    if (o.switchTo === undefined) out[o.key] = v;
    else if (v) out[o.key] = o.switchTo;
  }
  return out;
}

/**
 * Merges flags (already parsed, camelCase keys, strings/booleans) over the environment.
 * Throws a plain Error listing every bad value.
 */
export function loadConfig(flags: Record<string, unknown>, env: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const fromEnv = env[envName(key)];
    if (fromEnv !== undefined && fromEnv !== "") raw[key] = fromEnv;
    if (flags[key] !== undefined) raw[key] = flags[key];
  }
  const parsed = CONFIG_SCHEMA.safeParse(raw);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${optionNames(String(i.path[0]))}: ${i.message}`).join("\n"));
  }
  return parsed.data;
}

/** How a user sets an option: `--port (GRAPH_STATS_PORT)`, `--no-sample (GRAPH_STATS_SAMPLE)`. */
function optionNames(key: string): string {
  const o = CONFIG_OPTION[key as keyof Config];
  return `--${o.flag} (${o.env})`;
}

/** The URL with its password replaced by `***`, for logs and messages (never the secret itself). */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, "$1***@");
}
