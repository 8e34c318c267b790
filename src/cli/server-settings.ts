/**
 * Settings the CLI must agree on with the server (README.md § CLI): `serve` records its token
 * lifetime and default limits in the database; `token create` and `user limits` use them unless
 * given on their own command line. The environment of a one-shot command may be stale, so a
 * recorded value beats it.
 */
import type { SettingsStore } from "../auth/secret.ts";
import { CONFIG_OPTION, type Config } from "../config.ts";
import type { ParsedArgs } from "./args.ts";

export interface ServerSettings {
  tokenTtl: string;
  ratePerMinute: number;
  ratePerDay: number;
}

/** The settings table's key of each; flag and environment names are the config's (CONFIG_OPTION). */
const KEYS: Record<keyof ServerSettings, string> = {
  tokenTtl: "token_ttl",
  ratePerMinute: "rate_per_minute",
  ratePerDay: "rate_per_day",
};
const NAMES = Object.keys(KEYS) as (keyof ServerSettings)[];

/** Called by `serve`: writes only values that changed, so workers starting together do not contend. */
export async function recordServerSettings(store: SettingsStore, config: Config): Promise<void> {
  for (const name of NAMES) await store.setSetting(KEYS[name], String(config[name]));
}

/**
 * The values a one-shot command uses: its own flag, else what the server recorded, else its
 * configuration (environment or default). `notes` say when an environment value was set aside.
 */
export async function agreedSettings(store: SettingsStore, args: ParsedArgs): Promise<ServerSettings & { notes: string[] }> {
  const env = args.env;
  const flags = args.flags as Record<string, unknown>;
  const out = {
    tokenTtl: args.config.tokenTtl,
    ratePerMinute: args.config.ratePerMinute,
    ratePerDay: args.config.ratePerDay,
    notes: [] as string[],
  };
  for (const name of NAMES) {
    const key = KEYS[name];
    const { flag, env: envName } = CONFIG_OPTION[name];
    if (flags[flag] !== undefined) continue;
    const recorded = await store.getSetting(key);
    if (recorded === null) continue;
    const value = name === "tokenTtl" ? recorded : Number(recorded);
    if (env[envName] && String(args.config[name]) !== recorded) {
      out.notes.push(
        `${envName}=${env[envName]} set aside: the server was started with ${recorded} (settings.${key}); pass --${flag} to override`,
      );
    }
    (out as Record<string, unknown>)[name] = value;
  }
  return out;
}
