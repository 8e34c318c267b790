/** serve's help lists every setting src/config.ts accepts, as the flag serve parses, with its default. */
import { expect, test } from "bun:test";
import { CONFIG_KEYS, flagName } from "../config.ts";
import { runCli } from "../http/test-support/process.ts";

test("serve --help names every config key as a flag, one a line, with defaults", async () => {
  const r = await runCli(["serve", "--help"]);
  expect(r.code).toBe(0);
  const lines = r.stdout.split("\n");
  for (const key of CONFIG_KEYS) {
    const flag = key === "sample" ? "--no-sample" : `--${flagName(key)}`;
    expect(lines.some((l) => l.startsWith(`  ${flag} `))).toBe(true);
  }
  for (const flag of ["--cache-mb", "--cost-budget", "--audit-retention-days", "--metrics-allow", "--public-url", "--oidc-issuer", "--oidc-client-id", "--oidc-client-secret", "--dev", "--dev-idp-port"]) {
    expect(r.stdout).toContain(`  ${flag} `);
  }
  expect(lines.find((l) => l.startsWith("  --cache-mb "))).toContain("(default 128)");
  expect(lines.find((l) => l.startsWith("  --metrics-allow "))).toContain("(default 127.0.0.1,::1)");
}, 30_000);
