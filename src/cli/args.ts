/**
 * Flag parsing shared by every command (node:util parseArgs, strict: an unknown flag is an error).
 * Config flags map onto src/config.ts; command flags are returned as they are.
 */
import { parseArgs } from "node:util";
import { loadConfig, type Config } from "../config.ts";

const OPTIONS = {
  // config
  port: { type: "string" },
  host: { type: "string" },
  db: { type: "string" },
  "database-url": { type: "string" },
  "db-pool": { type: "string" },
  "db-statement-timeout": { type: "string" },
  "jwt-secret": { type: "string" },
  "jwt-previous-secrets": { type: "string" },
  "token-ttl": { type: "string" },
  "rate-per-minute": { type: "string" },
  "rate-per-day": { type: "string" },
  "default-universe": { type: "string" },
  "cors-origins": { type: "string" },
  "log-level": { type: "string" },
  "no-sample": { type: "boolean" },
  workers: { type: "string" },
  "compute-threads": { type: "string" },
  "audit-retention-days": { type: "string" },
  "cache-mb": { type: "string" },
  "cost-budget": { type: "string" },
  "public-url": { type: "string" },
  "oidc-issuer": { type: "string" },
  "oidc-client-id": { type: "string" },
  "oidc-client-secret": { type: "string" },
  dev: { type: "boolean" },
  "dev-idp-port": { type: "string" },
  "metrics-allow": { type: "string" },
  // commands
  universe: { type: "string" },
  interval: { type: "string" },
  "default-offset": { type: "string" },
  map: { type: "string", multiple: true },
  price: { type: "string" },
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
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

export interface ParsedArgs {
  positionals: string[];
  flags: {
    universe?: string;
    interval?: string;
    "default-offset"?: string;
    map?: string[];
    price?: string;
    user?: string[];
    users?: string;
    prefix?: string;
    ttl?: string;
    email?: string;
    json?: boolean;
    "per-minute"?: string;
    "per-day"?: string;
    reset?: boolean;
    days?: string;
    help?: boolean;
    version?: boolean;
  };
  config: Config;
}

/** A usage problem: printed with a hint and exit code 2. */
export class UsageError extends Error {}

export function parseCli(argv: string[], env: Record<string, string | undefined>): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values as Record<string, unknown>;
  const configFlags: Record<string, unknown> = {
    port: v.port,
    host: v.host,
    db: v.db,
    databaseUrl: v["database-url"],
    dbPool: v["db-pool"],
    dbStatementTimeout: v["db-statement-timeout"],
    jwtSecret: v["jwt-secret"],
    jwtPreviousSecrets: v["jwt-previous-secrets"],
    tokenTtl: v["token-ttl"],
    ratePerMinute: v["rate-per-minute"],
    ratePerDay: v["rate-per-day"],
    defaultUniverse: v["default-universe"],
    corsOrigins: v["cors-origins"],
    logLevel: v["log-level"],
    sample: v["no-sample"] ? false : undefined,
    workers: v.workers,
    computeThreads: v["compute-threads"],
    auditRetentionDays: v["audit-retention-days"],
    cacheMb: v["cache-mb"],
    costBudget: v["cost-budget"],
    publicUrl: v["public-url"],
    oidcIssuer: v["oidc-issuer"],
    oidcClientId: v["oidc-client-id"],
    oidcClientSecret: v["oidc-client-secret"],
    dev: v.dev ? true : undefined,
    devIdpPort: v["dev-idp-port"],
    metricsAllow: v["metrics-allow"],
  };
  let config: Config;
  try {
    config = loadConfig(configFlags, env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return { positionals: parsed.positionals, flags: v as ParsedArgs["flags"], config };
}

/** A positive integer flag, or a UsageError naming it. */
export function intFlag(name: string, value: string | undefined, min = 1, max = 1_000_000_000): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${value}'`);
  return n;
}
