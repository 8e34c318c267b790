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

describe("trusted proxies (docs/deploy.md § 5. The load balancer: nginx's X-Forwarded-For names the client)", () => {
  test("none by default; addresses and CIDR blocks are taken; anything else names the setting and the entry", () => {
    expect(loadConfig({}, {}).trustedProxies).toEqual([]);
    expect(loadConfig({}, { GRAPH_STATS_TRUSTED_PROXIES: "127.0.0.1, ::1,10.0.0.0/8" }).trustedProxies).toEqual([
      "127.0.0.1",
      "::1",
      "10.0.0.0/8",
    ]);
    expect(() => loadConfig({ trustedProxies: "nginx.internal" }, {})).toThrow(
      "--trusted-proxies (GRAPH_STATS_TRUSTED_PROXIES): 'nginx.internal' is not an IP address or CIDR block",
    );
    expect(() => loadConfig({ trustedProxies: "10.0.0.0/33" }, {})).toThrow("bad prefix length in '10.0.0.0/33'");
  });
});
