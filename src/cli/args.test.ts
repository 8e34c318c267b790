/** Every setting is declared once (CONFIG_SCHEMA): its flag and environment name are derived, and both reach the config. */
import { describe, expect, test } from "bun:test";
import { CONFIG_KEYS, CONFIG_OPTIONS, CONFIG_SCHEMA, loadConfig, type Config } from "../config.ts";
import { COMMAND_OPTIONS, parseCli, UsageError } from "./args.ts";

/** Values that differ from the default, for settings whose default would not show the flag was read. */
const EXAMPLES: Partial<Record<keyof Config, string>> = {
  port: "9091",
  host: "127.0.0.1",
  db: "/tmp/other.sqlite",
  databaseUrl: "postgres://u:p@db.example:5432/gs",
  dbPool: "3",
  dbStatementTimeout: "5s",
  jwtSecret: "0123456789abcdef0123",
  jwtPreviousSecrets: "0123456789abcdefXX,fedcba9876543210YY",
  tokenTtl: "7d",
  ratePerMinute: "7",
  ratePerDay: "70",
  defaultUniverse: "nifty50",
  corsOrigins: "https://a.example,https://b.example",
  logLevel: "debug",
  workers: "2",
  computeThreads: "0",
  auditRetentionDays: "30",
  cacheMb: "16",
  costBudget: "1234",
  publicUrl: "https://graph.example",
  oidcIssuer: "https://idp.example",
  oidcClientId: "client",
  oidcClientSecret: "client-secret",
  devIdpPort: "9092",
  metricsAllow: "10.0.0.0/8",
  trustedProxies: "127.0.0.1,10.0.0.0/8",
};

const DEFAULTS = CONFIG_SCHEMA.parse({}) as Record<string, unknown>;

describe("options declared once", () => {
  test("every config key has one flag and one environment name, and no command flag takes a setting's name", () => {
    expect(CONFIG_OPTIONS.map((o) => o.key)).toEqual(CONFIG_KEYS);
    for (const o of CONFIG_OPTIONS) {
      expect(o.flag).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(o.env).toMatch(/^GRAPH_STATS_[A-Z0-9_]+$/);
      expect(o.flag in COMMAND_OPTIONS).toBe(false);
    }
    expect(new Set(CONFIG_OPTIONS.map((o) => o.flag)).size).toBe(CONFIG_KEYS.length);
    expect(new Set(CONFIG_OPTIONS.map((o) => o.env)).size).toBe(CONFIG_KEYS.length);
  });

  test("the booleans are switches that turn their default around: --dev and --no-sample", () => {
    const switches = CONFIG_OPTIONS.filter((o) => o.switchTo !== undefined).map((o) => [o.key, o.flag, o.switchTo]);
    expect(switches).toEqual([
      ["sample", "no-sample", false],
      ["dev", "dev", true],
    ]);
    expect(parseCli(["--no-sample", "--dev"], {}).config).toMatchObject({ sample: false, dev: true });
    expect(parseCli([], { GRAPH_STATS_SAMPLE: "0", GRAPH_STATS_DEV: "true" }).config).toMatchObject({ sample: false, dev: true });
    expect(() => parseCli(["--no-sample=1"], {})).toThrow(UsageError);
  });

  for (const o of CONFIG_OPTIONS.filter((o) => o.switchTo === undefined)) {
    test(`--${o.flag} and ${o.env} set ${o.key}; the flag wins`, () => {
      const value = EXAMPLES[o.key] ?? (DEFAULTS[o.key] === undefined ? undefined : String(DEFAULTS[o.key]));
      if (value === undefined) throw new Error(`give ${o.key} an example value in EXAMPLES: it has no default`);
      const expected = loadConfig({ [o.key]: value }, {})[o.key];
      expect(parseCli([`--${o.flag}`, value], {}).config[o.key]).toEqual(expected);
      expect(parseCli([], { [o.env]: value }).config[o.key]).toEqual(expected);
      expect(parseCli([`--${o.flag}`, value], { [o.env]: "!" }).config[o.key]).toEqual(expected);
    });
  }

  test("an unknown flag is a usage error naming it", () => {
    expect(() => parseCli(["--rate-per-hour", "3"], {})).toThrow("'--rate-per-hour'");
  });
});
