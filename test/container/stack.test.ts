/**
 * The container image and the compose stack, for real (docs/deploy.md § Containers: the whole stack in one command): the local
 * Debian base (kept between runs), the three images (each rebuilt only when its inputs changed:
 * images.ts), PostgreSQL + two instances + nginx started by
 * podman-compose, then a live call, the per-minute limit shared by both instances, /metrics
 * refused at nginx, and a stop after which every container has exited 0. Runs as root where
 * podman, runc, debootstrap and podman-compose are installed (.ci/run installs them); skips, saying
 * why, elsewhere.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../support/free-port.ts";
import { composeImages, INPUTS_LABEL, inputsHash } from "./images.ts";

const ROOT = resolve(import.meta.dir, "../..");
const WRAPPER = join(ROOT, "deploy/podman/podman-host");
const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

function skipReason(): string | null {
  const missing = ["podman", "runc", "debootstrap", "podman-compose"].filter((c) => !Bun.which(c));
  if (missing.length > 0) return `${missing.join(", ")} not installed (apt-get install podman runc debootstrap podman-compose)`;
  if (process.getuid?.() !== 0) return "needs root (debootstrap, and podman with host networking)";
  return null;
}
const skip = skipReason();
if (skip) console.log(`test/container/stack.test.ts skipped: ${skip}`);

interface Run {
  code: number;
  /** stdout, trimmed. */
  out: string;
  /** stdout and stderr. */
  all: string;
}

/** Runs a command with a deadline (killed past it); throws with its output unless `allowFail`. */
async function run(cmd: string[], opts: { cwd?: string; timeoutMs: number; allowFail?: boolean }): Promise<Run> {
  const proc = Bun.spawn(cmd, { cwd: opts.cwd ?? ROOT, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  const out = `${stdout}${stderr}`;
  if (code !== 0 && !opts.allowFail) throw new Error(`${cmd.join(" ")} exited ${code}:\n${out.slice(-4000)}`);
  return { code, out: stdout.trim(), all: out };
}

const project = `gs-stack-test-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), "gs-stack-"));
// Four ports for the stack (it shares the host's network), taken when its containers start.
const [nginxPort, port1, port2, pgPort] = [freePort(), freePort(), freePort(), freePort()];
const instance1 = `${project}_graph-stats-1_1`;
const compose = (args: string[], timeoutMs: number) =>
  run(["podman-compose", "--podman-path", WRAPPER, "-p", project, ...args], { cwd: dir, timeoutMs });
const projectContainers = async () =>
  (
    await run(["podman", "ps", "-a", "--filter", `label=io.podman.compose.project=${project}`, "--format", "{{.Names}}"], {
      timeoutMs: 30_000,
    })
  ).out
    .split("\n")
    .filter(Boolean);

describe.skipIf(skip !== null)("the compose stack: PostgreSQL, two graph-stats containers, nginx", () => {
  beforeAll(async () => {
    // The base image is built once (about a minute and a half) and reused by later runs.
    await run([join(ROOT, "deploy/base/build-base.sh")], { timeoutMs: 600_000 });
    // The repository's compose file as it is, with build contexts made absolute so it runs from a
    // directory of its own, beside a .env of its own (a developer's .env is left alone).
    const yaml = readFileSync(join(ROOT, "compose.yaml"), "utf8")
      .replace(/build: \.\/deploy\//g, `build: ${ROOT}/deploy/`)
      .replace(/context: \.$/m, `context: ${ROOT}`);
    writeFileSync(join(dir, "compose.yaml"), yaml);
    writeFileSync(
      join(dir, ".env"),
      [
        `POSTGRES_PASSWORD=pw${crypto.randomUUID().replaceAll("-", "")}`,
        `GRAPH_STATS_JWT_SECRET=${crypto.randomUUID()}${crypto.randomUUID()}`,
        `GRAPH_STATS_PUBLIC_URL=http://127.0.0.1:${nginxPort}`,
        `NGINX_PORT=${nginxPort}`,
        `GRAPH_STATS_PORT_1=${port1}`,
        `GRAPH_STATS_PORT_2=${port2}`,
        `POSTGRES_PORT=${pgPort}`,
        "",
      ].join("\n"),
      { mode: 0o600 },
    );
    // Each image is built only when its inputs changed (images.ts: a hash of them in a label); up
    // then finds all three and returns once every container with a health check reports healthy
    // (the wrapper waits).
    const baseId = (await run(["podman", "image", "inspect", "localhost/debian:bookworm", "--format", "{{.Id}}"], { timeoutMs: 30_000 }))
      .out;
    for (const img of composeImages(ROOT)) {
      const hash = inputsHash(ROOT, img, baseId);
      const current = await run(["podman", "image", "inspect", img.image, "--format", `{{.Id}} {{index .Labels "${INPUTS_LABEL}"}}`], {
        timeoutMs: 30_000,
        allowFail: true,
      });
      const [oldId, oldHash] = current.code === 0 ? current.out.split(" ") : [];
      if (oldHash === hash) {
        console.log(`${img.image}: inputs unchanged (${hash}), reused`);
        continue;
      }
      const args = Object.entries(img.args).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]);
      await run([WRAPPER, "build", "-t", img.image, "-f", img.dockerfile, "--label", `${INPUTS_LABEL}=${hash}`, ...args, img.context], {
        timeoutMs: 900_000,
      });
      console.log(`${img.image}: built (inputs ${hash})`);
      // The image it replaced, now untagged, is ~120-220 MB of nothing (kept if a container uses it).
      if (oldId) await run(["podman", "rmi", oldId], { timeoutMs: 60_000, allowFail: true });
    }
    await compose(["up", "-d", "--no-build"], 900_000);
  }, 1_200_000);

  afterAll(async () => {
    // Everything this run made, even after a failure: containers with their anonymous volumes,
    // the database volume, and the network podman-compose creates (unused with host networking).
    const names = await projectContainers().catch(() => []);
    if (names.length > 0) await run(["podman", "rm", "-f", "-v", "-t", "10", ...names], { timeoutMs: 120_000, allowFail: true });
    await run(["podman", "volume", "rm", "-f", `${project}_pgdata`], { timeoutMs: 60_000, allowFail: true });
    await run(["podman", "network", "rm", "-f", `${project}_default`], { timeoutMs: 60_000, allowFail: true });
    rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  test("the image: non-root, versioned, with a health check, and small", async () => {
    const inspect = await run(
      [
        "podman",
        "image",
        "inspect",
        `localhost/graph-stats:${VERSION}`,
        "--format",
        '{{.Config.User}}|{{index .Labels "org.opencontainers.image.version"}}|{{.Size}}',
      ],
      { timeoutMs: 30_000 },
    );
    const [user, label, size] = inspect.out.split("|");
    expect(user).toBe("10001:10001");
    expect(label).toBe(VERSION);
    expect(Number(size)).toBeLessThan(160e6); // the binary is ~125 MB; the rest is libc and bash
    const health = await run(["podman", "healthcheck", "run", instance1], { timeoutMs: 30_000, allowFail: true });
    expect(health.code).toBe(0);
  });

  test("a live call through nginx answers 200; the per-minute limit holds across both instances; /metrics is refused at nginx", async () => {
    const mint = async (user: string) =>
      (await run(["podman", "exec", instance1, "graph-stats", "token", "create", "--user", user], { timeoutMs: 60_000 })).out;
    const call = (port: number, token: string) =>
      fetch(`http://127.0.0.1:${port}/v1/graph-stats/chart?include_graph=false`, { headers: { Authorization: `Bearer ${token}` } });

    const live = await call(nginxPort as number, await mint("stack-live"));
    expect(live.status).toBe(200);
    expect(((await live.json()) as { success: boolean }).success).toBe(true);

    // 12 requests at once, 6 straight to each instance, for a user allowed 5 a minute.
    const burstToken = await mint("stack-burst");
    await run(["podman", "exec", instance1, "graph-stats", "user", "limits", "stack-burst", "--per-minute", "5", "--per-day", "100"], {
      timeoutMs: 60_000,
    });
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call((i % 2 === 0 ? port1 : port2) as number, burstToken).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((s) => s === 200).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(7);

    const metrics = await fetch(`http://127.0.0.1:${nginxPort}/metrics`);
    expect(metrics.status).toBe(403);
    // The instance itself serves it to loopback, so the refusal above is nginx's.
    expect((await fetch(`http://127.0.0.1:${port1}/metrics`)).status).toBe(200);
  }, 120_000);

  test("a stop: every container exits 0, the instances after draining", async () => {
    await compose(["stop"], 120_000);
    const names = await projectContainers();
    expect(names.length).toBe(4);
    for (const name of names) {
      const state = await run(["podman", "inspect", name, "--format", "{{.State.Running}} {{.State.ExitCode}}"], { timeoutMs: 30_000 });
      expect(`${name} ${state.out}`).toBe(`${name} false 0`);
    }
    for (const name of names.filter((n) => n.includes("graph-stats"))) {
      const logs = await run(["podman", "logs", name], { timeoutMs: 30_000 });
      expect(logs.all).toContain('"msg":"stopped"');
    }
  }, 180_000);
});
