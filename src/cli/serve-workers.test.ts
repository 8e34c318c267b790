/**
 * Issue #12 item 11 (README.md § Operations: `serve --workers N` replaces a worker that dies): a real
 * supervisor with two real workers on one port; its workers are SIGKILLed and it must replace
 * them, log each restart, and on SIGTERM stop restarting and exit with everything it started. The
 * workers share one port and one database file, and the meter stays exact across them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";

let server: ServerProcess | undefined;
afterAll(() => {
  if (server && server.proc.exitCode === null) server.proc.kill("SIGKILL");
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const json = (lines: string[]) =>
  lines.flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return [];
    }
  });
const listeningPids = (s: ServerProcess) =>
  json(s.logs)
    .filter((j) => j.msg === "listening" && j.worker)
    .map((j) => j.pid as number);

/** Restarts and signals are the subject here, not compute threads: these serve processes start none (the sample database's workers below keep theirs). */
const BARE = ["--no-sample", "--jwt-secret", "workers-secret-0123456789", "--compute-threads", "0"];

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; logs:\n${server?.logs.join("\n")}`);
    await Bun.sleep(25);
  }
}

// From source here: the supervisor starts its workers as `bun src/cli.ts` there and as itself in the
// binary (serve-command.ts); the tests below run the binary.
test("a SIGKILLed worker is replaced and logged; SIGTERM stops the restarts and everything exits", async () => {
  const db = join(mkdtempSync(join(tmpdir(), "gs-workers-")), "graph-stats.sqlite");
  server = await spawnServer(["--port", "0", "--db", db, "--workers", "2", ...BARE], { listening: 2, source: true });
  const s = server;
  const [first, second] = listeningPids(s) as [number, number];
  expect(first).not.toBe(second);

  process.kill(first, "SIGKILL");
  const restart = await until("the restart line", () => json(s.logs).find((j) => j.msg === "worker died; restarting" && j.pid === first));
  expect(restart.signal).toBe("SIGKILL");
  expect(restart.code).toBeNull();
  expect(restart.delay_ms).toBe(500);
  const replacement = await until("a replacement worker", () => listeningPids(s).find((p) => p !== first && p !== second));

  // With both original workers dead, whatever answers is a replacement.
  process.kill(second, "SIGKILL");
  await until("the second worker's death", () => !alive(second));
  const res = await fetch(`${s.base}/health`);
  expect(res.status).toBe(200);
  expect(alive(replacement)).toBe(true);
  await until("the second restart line", () => json(s.logs).find((j) => j.msg === "worker died; restarting" && j.pid === second));
  await until("two workers again", () => listeningPids(s).length === 4);
  // Whichever worker is scraped reports the supervisor's count of restarts (src/worker-restarts.ts).
  expect(await (await fetch(`${s.base}/metrics`)).text()).toContain("\ngraphstats_worker_restarts_total 2\n");

  const workers = listeningPids(s).slice(2);
  const code = await s.stop("SIGTERM");
  if (code !== 0) console.error(`supervisor exit ${code}; logs:\n${s.logs.join("\n")}`);
  expect(code).toBe(0);
  for (const pid of workers) expect(alive(pid)).toBe(false);
  const after = s.logs.slice(s.logs.findIndex((l) => l.includes("shutting down")));
  expect(after.some((l) => l.includes("restarting"))).toBe(false);
}, 60_000);

describe("serve --workers 2 on a sample database file", () => {
  const secret = "workers-secret-0123456789";
  let s: ServerProcess;
  beforeAll(async () => {
    s = server = await spawnServer(
      ["--port", "0", "--db", sampleDb(), "--no-sample", "--default-universe", "sample", "--workers", "2", "--jwt-secret", secret],
      { listening: 2 },
    );
  });

  test("two worker processes share the port and the meter stays exact: 100 simultaneous requests of one fresh user, 1 admitted", async () => {
    expect(new Set(listeningPids(s)).size).toBe(2);
    const { token } = await mintToken({ secret, userId: "workers-user", ttlSeconds: 3600, clock: systemClock });
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () =>
        fetch(`${s.base}/v1/graph-stats/chart?lookback=20`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 429)).toHaveLength(99);
  });

  test("a SIGKILLed supervisor takes its workers with it: each drains and exits instead of serving on, unsupervised", async () => {
    const workers = listeningPids(s);
    expect(workers).toHaveLength(2);
    s.proc.kill("SIGKILL");
    await s.proc.exited;
    for (const pid of workers) await until(`worker ${pid} to exit`, () => !alive(pid), 10_000);
    const gone = json(s.logs).filter((j) => j.msg === "shutting down: draining in-flight requests" && j.signal === "supervisor gone");
    expect(gone.map((j) => j.pid).sort()).toEqual([...workers].sort());
    expect(
      await fetch(`${s.base}/health`).then(
        (r) => r.status,
        () => "refused",
      ),
    ).toBe("refused");
  }, 60_000);
});

/**
 * The supervisor in a process of its own, its workers stand-ins: `sleep` has no SIGTERM handler, as a
 * replacement still loading has none yet; the shell one exits 3 on SIGTERM, as a failed drain would.
 * Printing "started" once superviseWorkers has spawned them makes the signal's moment certain; a
 * stand-in with a handler to set up says it is ready with a file in `ready`, and both are waited for.
 */
async function superviseStandIns(worker: string[], ready?: string): Promise<{ code: number; out: string }> {
  const script = `
    import { superviseWorkers } from ${JSON.stringify(join(import.meta.dir, "worker-supervisor.ts"))};
    import { createLogger } from ${JSON.stringify(join(import.meta.dir, "../logger.ts"))};
    const done = superviseWorkers({ workers: 2, spawn: () => Bun.spawn(${JSON.stringify(worker)}, { stdio: ["ignore", "ignore", "ignore"] }), logger: createLogger("info", 1, false) });
    console.log("started");
    process.exitCode = await done;`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("started\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  if (ready) await until("both shells' traps", () => readdirSync(ready).length === 2); // sleep has nothing to set up
  proc.kill("SIGTERM");
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  return { code: await proc.exited, out };
}

test("a worker killed by the SIGTERM the supervisor forwarded (still loading, no handler yet) is a clean stop", async () => {
  const { code, out } = await superviseStandIns(["sleep", "30"]);
  expect(out).not.toContain("uncleanly");
  expect(code).toBe(0);
});

test("a worker that exits non-zero on the forwarded SIGTERM makes the supervisor exit 1, logged", async () => {
  const ready = mkdtempSync(join(tmpdir(), "gs-trap-"));
  const { code, out } = await superviseStandIns(["sh", "-c", `trap 'kill $!; exit 3' TERM; touch ${ready}/$$; sleep 30 & wait`], ready);
  const unclean = json(out.split("\n")).filter((j) => j.msg === "worker exited uncleanly while stopping");
  expect(unclean.map((j) => [j.code, j.signal])).toEqual([
    [3, null],
    [3, null],
  ]);
  expect(code).toBe(1);
});

test("serve SIGTERMed just as it says listening drains and exits 0 (its handlers precede the socket)", async () => {
  const db = join(mkdtempSync(join(tmpdir(), "gs-term-")), "graph-stats.sqlite");
  // 1 ms after the line hit the window between "listening" and the handlers every time before the fix.
  for (const delayMs of [0, 1, 2, 1, 0, 1]) {
    const one = await spawnServer(["--port", "0", "--db", db, ...BARE]);
    if (delayMs > 0) await Bun.sleep(delayMs);
    const code = await one.stop("SIGTERM");
    expect({ delayMs, code, signal: one.proc.signalCode ?? null }).toEqual({ delayMs, code: 0, signal: null });
  }
}, 60_000);
