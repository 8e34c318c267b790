import { describe, expect, test } from "bun:test";
import { parseArgs } from "./args.ts";
import { UsageError } from "./types.ts";

const JWT = "aaa.bbb.ccc";

describe("parseArgs", () => {
  test("defaults: core, text, budget 3 without a secret and 300 with one", () => {
    const r = parseArgs(["--base-url", "http://127.0.0.1:8080/"]);
    expect(r.kind).toBe("run");
    if (r.kind !== "run") return;
    expect(r.options).toMatchObject({
      baseUrl: "http://127.0.0.1:8080",
      profile: "core",
      reporter: "text",
      budget: 3,
      slow: false,
      limitsFromHeaders: false,
    });
    const s = parseArgs(["--base-url=http://h", "--secret", "s", "--profile", "full", "--only", "auth.,limits.burst", "--slow"]);
    if (s.kind !== "run") throw new Error("expected run");
    expect(s.options).toMatchObject({ budget: 300, profile: "full", only: ["auth.", "limits.burst"], slow: true, secret: "s" });
  });

  test("tokens, budget, reporter, output and limits-from-headers are read", () => {
    const r = parseArgs([
      "--base-url",
      "https://x.example",
      "--token",
      JWT,
      "--token-b",
      JWT,
      "--expired-token",
      JWT,
      "--budget",
      "0",
      "--reporter",
      "junit",
      "--output",
      "out.xml",
      "--limits-from-headers",
    ]);
    if (r.kind !== "run") throw new Error("expected run");
    expect(r.options).toMatchObject({
      token: JWT,
      tokenB: JWT,
      expiredToken: JWT,
      budget: 0,
      reporter: "junit",
      output: "out.xml",
      limitsFromHeaders: true,
    });
  });

  test.each([
    [[], /--base-url is required/],
    [["--base-url"], /--base-url needs a value/],
    [["--base-url", "not a url"], /absolute http\(s\) URL/],
    [["--base-url", "ftp://x"], /must use http or https/],
    [["--base-url", "http://x", "--profile", "strict"], /--profile must be core, full or fuzz, got 'strict'/],
    [["--base-url", "http://x", "--seed", "1"], /--seed applies to fuzzing: add --fuzz/],
    [["--base-url", "http://x", "--openapi", "doc.json"], /--openapi applies to fuzzing/],
    [["--base-url", "http://x", "--fuzz", "--seed", "-3"], /--seed must be an integer from 0 to 4294967295, got '-3'/],
    [["--base-url", "http://x", "--fuzz", "--seed", "4294967296"], /--seed must be an integer from 0 to 4294967295/],
    [["--base-url", "http://x", "--fuzz", "--cases", "0"], /--cases must be an integer from 1 to 100000, got '0'/],
    [["--base-url", "http://x", "--fuzz", "--openapi="], /--openapi needs a file name/],
    [["--base-url", "http://x", "--fuzz=yes"], /--fuzz takes no value/],
    [["--base-url", "http://x", "--reporter", "xml"], /--reporter must be text, json or junit/],
    [["--base-url", "http://x", "--budget", "-1"], /--budget must be an integer >= 0, got '-1'/],
    [["--base-url", "http://x", "--budget", "ten"], /--budget must be an integer/],
    [["--base-url", "http://x", "--token", "abc"], /--token must be a compact JWT/],
    [["--base-url", "http://x", "--secret", ""], /--secret must not be empty/],
    [["--base-url", "http://x", "--only", ","], /--only needs at least one check id/],
    [["--base-url", "http://x", "--bogus"], /unknown option '--bogus'/],
    [["--base-url", "http://x", "--slow=yes"], /--slow takes no value/],
    [["--base-url", "http://x", "--base-url", "http://y"], /given twice/],
  ])("%p is a usage error", (argv, message) => {
    expect(() => parseArgs(argv as string[])).toThrow(UsageError);
    expect(() => parseArgs(argv as string[])).toThrow(message as RegExp);
  });

  test("fuzzing: --fuzz adds the fuzz checks, --profile fuzz runs them alone; --openapi, --seed and --cases are read", () => {
    const r = parseArgs(["--base-url", "http://h", "--fuzz", "--openapi", "doc.json", "--seed", "4294967295", "--cases", "25"]);
    if (r.kind !== "run") throw new Error("expected run");
    expect(r.options).toMatchObject({ profile: "core", fuzz: true, openapi: "doc.json", seed: 4294967295, cases: 25 });
    const p = parseArgs(["--base-url", "http://h", "--profile", "fuzz", "--seed=0"]);
    if (p.kind !== "run") throw new Error("expected run");
    expect(p.options).toMatchObject({ profile: "fuzz", seed: 0 });
    expect(p.options.fuzz).toBeUndefined();
    expect(p.options.cases).toBeUndefined();
    expect(parseArgs(["--list", "--fuzz"])).toEqual({ kind: "list", fuzz: true });
  });

  test("--help and --list need no base URL", () => {
    expect(parseArgs(["--help"]).kind).toBe("help");
    expect(parseArgs(["--list", "--profile", "core"])).toEqual({ kind: "list", profile: "core" });
  });

  test("credentials may come from the environment, so npm and ps do not show them; a flag wins", () => {
    const env = { GRAPH_STATS_CONFORMANCE_TOKEN: JWT, GRAPH_STATS_CONFORMANCE_SECRET: "from-env" };
    const r = parseArgs(["--base-url", "http://h"], env);
    if (r.kind !== "run") throw new Error("expected run");
    expect(r.options).toMatchObject({ token: JWT, secret: "from-env", budget: 300 });
    const flag = parseArgs(["--base-url", "http://h", "--secret", "from-flag"], env);
    if (flag.kind !== "run") throw new Error("expected run");
    expect(flag.options.secret).toBe("from-flag");
    expect(() => parseArgs(["--base-url", "http://h"], { GRAPH_STATS_CONFORMANCE_TOKEN: "not-a-jwt" })).toThrow(
      /--token must be a compact JWT/,
    );
  });
});
