/** serve's help lists every setting src/config.ts accepts, as the flag serve parses, with its default. */
import { expect, test } from "bun:test";
import { CONFIG_OPTIONS } from "../config.ts";
import { runCli } from "../../test/support/http/process.ts";

test("serve --help names every config key as a flag, one a line, with defaults", async () => {
  const r = await runCli(["serve", "--help"]);
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  for (const { flag } of CONFIG_OPTIONS) {
    expect(lines.filter((l) => l.startsWith(`  --${flag} `))).toHaveLength(1);
  }
  for (const flag of [
    "--cache-mb",
    "--cost-budget",
    "--audit-retention-days",
    "--metrics-allow",
    "--public-url",
    "--oidc-issuer",
    "--oidc-client-id",
    "--oidc-client-secret",
    "--dev",
    "--dev-idp-port",
    "--no-sample",
  ]) {
    expect(r.stdout).toContain(`  ${flag} `);
  }
  expect(r.stdout).toContain("--cache-mb as GRAPH_STATS_CACHE_MB");
  expect(lines.find((l) => l.startsWith("  --cache-mb "))).toContain("(default 128)");
  expect(lines.find((l) => l.startsWith("  --metrics-allow "))).toContain("(default 127.0.0.1,::1)");
  expect(lines.find((l) => l.startsWith("  --no-sample "))).not.toContain("default");
}, 30_000);
