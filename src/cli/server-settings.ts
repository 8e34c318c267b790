/**
 * Settings the CLI must agree on with the server (DECISIONS §8): `serve` records its token
 * lifetime and default limits in the database; `token create` and `user limits` use them unless
 * given on their own command line. The environment of a one-shot command may be stale, so a
 * recorded value beats it.
 */
import type { Database } from "bun:sqlite";
import type { Config } from "../config.ts";
import type { ParsedArgs } from "./args.ts";

export interface ServerSettings {
  tokenTtl: string;
  ratePerMinute: number;
  ratePerDay: number;
}

const KEYS: Record<keyof ServerSettings, { key: string; flag: string; env: string }> = {
  tokenTtl: { key: "token_ttl", flag: "token-ttl", env: "GRAPH_STATS_TOKEN_TTL" },
  ratePerMinute: { key: "rate_per_minute", flag: "rate-per-minute", env: "GRAPH_STATS_RATE_PER_MINUTE" },
  ratePerDay: { key: "rate_per_day", flag: "rate-per-day", env: "GRAPH_STATS_RATE_PER_DAY" },
};
const NAMES = Object.keys(KEYS) as (keyof ServerSettings)[];

/** Called by `serve`: writes only values that changed, so workers starting together do not contend. */
export function recordServerSettings(sqlite: Database, config: Config): void {
  const upsert = sqlite.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value");
  sqlite.transaction(() => {
    for (const name of NAMES) upsert.run(KEYS[name].key, String(config[name]));
  })();
}

/**
 * The values a one-shot command uses: its own flag, else what the server recorded, else its
 * configuration (environment or default). `notes` say when an environment value was set aside.
 */
export function agreedSettings(sqlite: Database, args: ParsedArgs, env: Record<string, string | undefined> = process.env): ServerSettings & { notes: string[] } {
  const flags = args.flags as Record<string, unknown>;
  const read = sqlite.query("SELECT value FROM settings WHERE key = ?");
  const out = { tokenTtl: args.config.tokenTtl, ratePerMinute: args.config.ratePerMinute, ratePerDay: args.config.ratePerDay, notes: [] as string[] };
  for (const name of NAMES) {
    const { key, flag, env: envName } = KEYS[name];
    if (flags[flag] !== undefined) continue;
    const recorded = (read.get(key) as { value: string } | null)?.value;
    if (recorded === undefined) continue;
    const value = name === "tokenTtl" ? recorded : Number(recorded);
    if (env[envName] && String(args.config[name]) !== recorded) {
      out.notes.push(`${envName}=${env[envName]} set aside: the server was started with ${recorded} (settings.${key}); pass --${flag} to override`);
    }
    (out as Record<string, unknown>)[name] = value;
  }
  return out;
}
