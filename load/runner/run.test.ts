// The `npm run load` runner, run for real as a subprocess. k6 cannot be installed here, so the with-k6
// path uses a stand-in `k6` on PATH that records what it was given and calls the server the runner started.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseTokenList } from "../lib/tokens.js";
import { envArgs, findK6, k6RunArgs, runDefaults, workspaceK6 } from "./k6.ts";
import { portOf } from "./server.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "gs-load-runner-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function runner(args: string[], env: Record<string, string | undefined>, root = ROOT) {
  const proc = Bun.spawn([process.execPath, join(root, "load", "run.ts"), ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

/** A stand-in `k6` in its own bin directory: records its arguments in `<out>.args`, then runs `body`. */
function fakeK6(name: string, body: (out: string) => string): { bin: string; out: string } {
  const bin = join(work, `${name}-bin`);
  Bun.spawnSync(["mkdir", "-p", bin]);
  const out = join(work, name);
  writeFileSync(join(bin, "k6"), `#!/bin/sh\nprintf '%s\\n' "$@" > "${out}.args"\n${body(out)}`);
  chmodSync(join(bin, "k6"), 0o755);
  return { bin, out };
}

describe("npm run load", () => {
  test("without k6 it says so, shows the manual command and exits 3", async () => {
    const empty = join(work, "empty-path");
    rmSync(empty, { recursive: true, force: true });
    Bun.spawnSync(["mkdir", "-p", empty]);
    // A copy of load/ with no workspace k6 beside it, so the last fallback finds nothing either.
    const lone = join(work, "lone-checkout");
    cpSync(join(ROOT, "load"), join(lone, "load"), { recursive: true });
    const r = await runner(["smoke"], { PATH: empty, HOME: process.env.HOME }, lone);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("k6 was not found (looked for $K6, then 'k6' on PATH), so load/smoke.js cannot run here.");
    expect(r.stderr).toContain("k6 run -e BASE_URL=http://127.0.0.1:8080 -e TOKENS=$PWD/tokens.json load/smoke.js");
  });

  test("a K6 path that does not exist also exits 3", async () => {
    const r = await runner(["auth"], { ...process.env, K6: join(work, "no-such-k6") });
    expect(r.code).toBe(3);
  });

  test("an unknown script is a usage error (exit 2)", async () => {
    const r = await runner(["stress"], { ...process.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown load script 'stress'");
    expect(r.stderr).toContain("usage: npm run load -- <smoke|demo|limits|auth|soak|compute|live>");
  });

  test("with k6 it starts the server, mints tokens, passes them to k6, returns k6's exit code and cleans up", async () => {
    const { bin, out } = fakeK6(
      "fake-k6",
      (o) => `
for a in "$@"; do case "$a" in BASE_URL=*) base="\${a#BASE_URL=}";; TOKENS=*) tokens="\${a#TOKENS=}";; esac; done
curl -s "$base/health" > "${o}.health"
cp "$tokens" "${o}.tokens"
exit 7
`,
    );
    const outDir = join(work, "summaries", "nested");
    const r = await runner(["limits", "-e", "VUS=120", "-e", "BURSTS=1"], {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      K6: undefined,
      LOAD_OUT_DIR: outDir,
    });
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 7 });

    const args = readFileSync(`${out}.args`, "utf8").trim().split("\n");
    expect(args[0]).toBe("run");
    expect(args.at(-1)).toBe(join(ROOT, "load", "limits.js"));
    const vars = envArgs(args);
    expect(vars.BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(vars.JWT_SECRET).toMatch(/^[0-9a-f]{48}$/);
    expect(vars.VUS).toBe("120");
    // The summary goes to the output directory (created for k6, which cannot create it), not the cwd.
    expect(vars.SUMMARY_DIR).toBe(outDir);
    // Our own server is held to its own forms.
    expect(vars.PROFILE).toBe("full");
    expect(existsSync(outDir)).toBe(true);
    expect(JSON.parse(readFileSync(`${out}.health`, "utf8")).data.status).toBe("ok");
    const tokens = parseTokenList(readFileSync(`${out}.tokens`, "utf8"), "tokens");
    expect(tokens.length).toBe(120);

    // Afterwards the server is stopped and the temporary directory (database, tokens) is gone.
    expect(existsSync(vars.TOKENS)).toBe(false);
    await expect(fetch(`${vars.BASE_URL}/health`)).rejects.toThrow();
  }, 60_000);
});

describe("npm run load -- live", () => {
  test("mints USERS tokens and raises the server's limits so the open loop is never refused", async () => {
    // The stand-in k6 calls the live endpoint once with the last token and keeps the limit headers.
    const { bin, out } = fakeK6(
      "live-k6",
      (o) => `
for a in "$@"; do case "$a" in BASE_URL=*) base="\${a#BASE_URL=}";; TOKENS=*) tokens="\${a#TOKENS=}";; esac; done
cp "$tokens" "${o}.tokens"
token=$(sed -n 's/.*"token": *"\\([^"]*\\)".*/\\1/p' "$tokens" | tail -1)
curl -s -D "${o}.headers" -o /dev/null -H "Authorization: Bearer $token" "$base/v1/graph-stats/chart?lookback=60"
exit 0
`,
    );
    const r = await runner(["live", "-e", "USERS=20", "-e", "RATE=100", "-e", "DURATION=2m"], {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      K6: undefined,
      LOAD_OUT_DIR: join(work, "live-out"),
    });
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
    expect(parseTokenList(readFileSync(`${out}.tokens`, "utf8"), "tokens").length).toBe(20);
    const headers = readFileSync(`${out}.headers`, "utf8").toLowerCase();
    // 20 users at 100/s: 301 requests each in a sliding minute, 600 in the run; twice that, plus one.
    expect(headers).toContain("x-ratelimit-limit: 603");
    expect(headers).toContain("x-ratelimit-daily-limit: 1201");
    expect(r.stderr).toContain("(limits 603/min, 1201/day), 20 tokens");
  }, 60_000);
});

describe("npm run load --instances", () => {
  test("starts N servers on one database and gives k6 all their URLs; they share one limiter", async () => {
    // The stand-in k6 calls each URL of BASE_URLS with the first token. At 1/minute on one shared store
    // the second instance must refuse what the first admitted; separate stores would admit both.
    const { bin, out } = fakeK6(
      "multi-k6",
      (o) => `
for a in "$@"; do case "$a" in BASE_URLS=*) urls="\${a#BASE_URLS=}";; TOKENS=*) tokens="\${a#TOKENS=}";; esac; done
token=$(sed -n 's/.*"token": *"\\([^"]*\\)".*/\\1/p' "$tokens" | head -1)
: > "${o}.statuses"
for u in $(echo "$urls" | tr ',' ' '); do curl -s -o /dev/null -w '%{http_code}\\n' -H "Authorization: Bearer $token" "$u/v1/graph-stats/chart?include_graph=false" >> "${o}.statuses"; done
exit 0
`,
    );
    const r = await runner(["limits", "--instances", "2", "-e", "VUS=3"], {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      K6: undefined,
      LOAD_OUT_DIR: join(work, "multi-out"),
      LOAD_USERS: "3",
      LOAD_RATE_PER_MINUTE: "1",
    });
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
    const args = readFileSync(`${out}.args`, "utf8").trim().split("\n");
    expect(args).not.toContain("--instances");
    const vars = envArgs(args);
    const urls = vars.BASE_URLS!.split(",");
    expect(urls.length).toBe(2);
    expect(new Set(urls).size).toBe(2);
    expect(vars.BASE_URL).toBe(urls[0]);
    expect(r.stderr).toContain(`graph-stats at ${urls.join(", ")} on one database file`);
    expect(readFileSync(`${out}.statuses`, "utf8").trim().split("\n")).toEqual(["200", "429"]);
    for (const u of urls) await expect(fetch(`${u}/health`)).rejects.toThrow();
  }, 90_000);

  test("several instances for a script that loads one URL, or a bad count, is a usage error (exit 2)", async () => {
    const smoke = await runner(["smoke", "--instances", "2"], { ...process.env });
    expect(smoke.code).toBe(2);
    expect(smoke.stderr).toContain("load/smoke.js targets one base URL; only limits and soak spread load over several instances");
    const zero = await runner(["limits", "--instances=0"], { ...process.env });
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--instances must be an integer from 1 to 16, got '0'");
  });
});

describe("runner helpers", () => {
  test("findK6: $K6 first, then k6 on PATH, then the first fallback that exists", () => {
    const bin = join(work, "which-bin");
    Bun.spawnSync(["mkdir", "-p", bin]);
    writeFileSync(join(bin, "k6"), "#!/bin/sh\n");
    chmodSync(join(bin, "k6"), 0o755);
    const fallback = join(work, "fallback-k6");
    writeFileSync(fallback, "");
    const missing = join(work, "no-such-fallback");
    expect(findK6({ K6: fallback, PATH: bin }, [missing])).toBe(fallback);
    expect(findK6({ K6: missing, PATH: bin }, [fallback])).toBeNull();
    expect(findK6({ PATH: bin }, [fallback])).toBe(join(bin, "k6"));
    expect(findK6({ PATH: work }, [missing, fallback])).toBe(fallback);
    expect(findK6({ PATH: work }, [missing])).toBeNull();
    expect(workspaceK6("/a/main")).toBe("/a/shared/tools/k6/k6");
  });
  test("runDefaults: 100 users, 2/minute, 1000/day, except live's, which follow its USERS, RATE and DURATION", () => {
    expect(runDefaults("limits", { RATE: "500" })).toEqual({ users: 100, ratePerMinute: 2, ratePerDay: 1000 });
    expect(runDefaults("live", {})).toEqual({ users: 1000, ratePerMinute: 63, ratePerDay: 1000 });
    expect(runDefaults("live", { USERS: "500", RATE: "1000", DURATION: "1h" })).toEqual({
      users: 500,
      ratePerMinute: 243,
      ratePerDay: 14401,
    });
    // Values live.js would refuse fall back to its defaults here; k6 then reports them.
    expect(runDefaults("live", { USERS: "0", RATE: "x", DURATION: "soon" })).toEqual({ users: 1000, ratePerMinute: 63, ratePerDay: 1000 });
  });
  test("envArgs reads -e, --env and --env= forms", () => {
    expect(envArgs(["-e", "A=1", "--env", "B=x=y", "--env=C=3", "--vus", "5"])).toEqual({ A: "1", B: "x=y", C: "3" });
  });
  test("k6RunArgs puts the runner's values before the user's so the user's win", () => {
    expect(k6RunArgs("/s.js", { BASE_URL: "u" }, ["-e", "BASE_URL=v"])).toEqual(["run", "-e", "BASE_URL=u", "-e", "BASE_URL=v", "/s.js"]);
  });
  test("portOf reads only the listening line", () => {
    expect(portOf('{"level":"info","port":4321,"msg":"listening"}')).toBe(4321);
    expect(portOf('{"msg":"loaded the synthetic sample universe"}')).toBeNull();
    expect(portOf("not json")).toBeNull();
  });
});
