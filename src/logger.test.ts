import { expect, test } from "bun:test";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, FLUSH_MS } from "./logger.ts";

const file = () => {
  const path = join(mkdtempSync(join(tmpdir(), "gs-log-")), "log.jsonl");
  return { path, fd: openSync(path, "w") };
};
const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));

test("one JSON object per line with level, ISO time, service, pid, fields and msg", () => {
  const { path, fd } = file();
  const log = createLogger("info", fd);
  log.info({ request_id: "r1", status: 200, user_id: null }, "done");
  log.warn("plain message");
  const [a, b] = lines(path);
  expect(a).toMatchObject({ level: "info", service: "graph-stats", pid: process.pid, request_id: "r1", status: 200, user_id: null, msg: "done" });
  expect(new Date(a.time).toISOString()).toBe(a.time);
  expect(b).toMatchObject({ level: "warn", msg: "plain message" });
});

test("levels below the threshold are dropped; silent drops everything", () => {
  const { path, fd } = file();
  const log = createLogger("warn", fd);
  log.info({ a: 1 });
  log.error({ b: 2 });
  expect(lines(path)).toHaveLength(1);
  expect(log.isLevelEnabled("info")).toBe(false);
  const quiet = createLogger("silent", fd);
  quiet.fatal("x");
  expect(lines(path)).toHaveLength(1);
});

test("buffered lines are written together within FLUSH_MS, or at flush()", async () => {
  const { path, fd } = file();
  const log = createLogger("info", fd, true);
  log.info({ n: 1 });
  log.info({ n: 2 });
  expect(readFileSync(path, "utf8")).toBe("");
  await new Promise((r) => setImmediate(r));
  expect(readFileSync(path, "utf8")).toBe(""); // not per event-loop turn any more
  await Bun.sleep(FLUSH_MS + 10);
  expect(lines(path).map((l) => l.n)).toEqual([1, 2]);
  log.info({ n: 3 });
  log.flush();
  expect(lines(path).map((l) => l.n)).toEqual([1, 2, 3]);
});

test("a buffered logger writes what is pending when the process exits", async () => {
  const { path } = file();
  const script = `import { openSync } from "node:fs"; import { createLogger } from ${JSON.stringify(import.meta.dir + "/logger.ts")};
const log = createLogger("info", openSync(${JSON.stringify(path)}, "w"), true); log.info({ n: 7 }); process.exit(3);`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stderr: "pipe" });
  expect(await proc.exited).toBe(3);
  expect(lines(path).map((l) => l.n)).toEqual([7]);
});
