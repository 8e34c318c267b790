import { describe, expect, test } from "bun:test";
import { loadConfig } from "./config.ts";

describe("previous JWT secrets (README.md § Configuration: each ≥ 16 characters, like the secret)", () => {
  test("a short previous secret from the environment is refused naming the option and its variable", () => {
    expect(() => loadConfig({}, { GRAPH_STATS_JWT_PREVIOUS_SECRETS: "a,b" })).toThrow(
      "--jwt-previous-secrets (GRAPH_STATS_JWT_PREVIOUS_SECRETS): each previous jwt secret must be at least 16 characters",
    );
  });

  test("one short secret among long ones is refused, from a flag too", () => {
    expect(() => loadConfig({ jwtPreviousSecrets: "0123456789abcdef,short" }, {})).toThrow("--jwt-previous-secrets");
  });

  test("secrets of 16 characters or more are accepted, trimmed and split on commas", () => {
    const c = loadConfig({ jwtPreviousSecrets: " 0123456789abcdef , fedcba9876543210xyz" }, {});
    expect(c.jwtPreviousSecrets).toEqual(["0123456789abcdef", "fedcba9876543210xyz"]);
    expect(loadConfig({}, {}).jwtPreviousSecrets).toEqual([]);
  });
});
