import { expect, test } from "bun:test";
import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, FLUSH_MS, msFromUs } from "./logger.ts";

const file = () => {
  const path = join(mkdtempSync(join(tmpdir(), "gs-log-")), "log.jsonl");
  return { path, fd: openSync(path, "w") };
};
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

test("one JSON object per line with level, ISO time, service, pid, fields and msg", () => {
  const { path, fd } = file();
  const log = createLogger("info", fd);
  log.info({ request_id: "r1", status: 200, user_id: null }, "done");
  log.warn("plain message");
  const [a, b] = lines(path);
  expect(a).toMatchObject({
    level: "info",
    service: "graph-stats",
    pid: process.pid,
    request_id: "r1",
    status: 200,
    user_id: null,
    msg: "done",
  });
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
  const script = `import { openSync } from "node:fs"; import { createLogger } from ${JSON.stringify(`${import.meta.dir}/logger.ts`)};
const log = createLogger("info", openSync(${JSON.stringify(path)}, "w"), true); log.info({ n: 7 }); process.exit(3);`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stderr: "pipe" });
  expect(await proc.exited).toBe(3);
  expect(lines(path).map((l) => l.n)).toEqual([7]);
});

test("request(...) writes the same bytes as info(entry), whatever the strings hold", () => {
  const { path, fd } = file();
  const log = createLogger("info", fd);
  const entries = [
    { request_id: "9664d156-388d-4401-9d44-dc0d51ad6095", method: "GET", path: "/health", status: 200, duration_us: 123, user_id: null },
    { request_id: "a.b_c-D", method: "DELETE", path: '/v1/"quoted"\\back\nslash\u0001', status: 405, duration_us: 12000, user_id: "alice" },
    { request_id: "z", method: "PATCH", path: "/ünï/😀/\ud800", status: 404, duration_us: 0, user_id: 'bob "the" \\ \u001f' },
    { request_id: "x", method: "GET", path: "", status: 500, duration_us: Number.NaN, user_id: "\udfff" },
  ];
  for (const { duration_us, ...e } of entries) {
    log.request(e.request_id, e.method, e.path, e.status, duration_us, e.user_id);
    log.info({
      request_id: e.request_id,
      method: e.method,
      path: e.path,
      status: e.status,
      duration_ms: duration_us / 1000,
      user_id: e.user_id,
    });
  }
  const written = readFileSync(path, "utf8").trim().split("\n");
  expect(written).toHaveLength(2 * entries.length);
  const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""');
  for (let k = 0; k < entries.length; k++) {
    expect(withoutTime(written[2 * k]!)).toBe(withoutTime(written[2 * k + 1]!));
    expect(JSON.parse(written[2 * k]!).path).toBe(entries[k]!.path);
  }
  const quiet = createLogger("warn", fd);
  quiet.request("r", "GET", "/health", 200, 1, null);
  expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2 * entries.length);
});

test("msFromUs(us) is String(us / 1000) for every microsecond to 2 s, and beyond", () => {
  const wrong: number[] = [];
  for (let us = 0; us <= 2_000_000; us++) if (msFromUs(us) !== String(us / 1000)) wrong.push(us);
  for (const us of [2 ** 31, 2 ** 31 + 7, 86_400_000_123, 1e12, 1e12 + 1, Number.MAX_SAFE_INTEGER])
    if (msFromUs(us) !== String(us / 1000)) wrong.push(us);
  expect(wrong).toEqual([]);
  expect([msFromUs(Number.NaN), msFromUs(-1), msFromUs(1.5)]).toEqual(["null", "-0.001", "0.0015"]);
});

test("lines longer than the buffer, multi-byte text and many lines keep their order and bytes", () => {
  const { path, fd } = file();
  const log = createLogger("info", fd, true);
  const long = "é😀x".repeat(8000); // ~32 KB of UTF-8, more than one buffer
  log.info({ n: 1, s: "ü" });
  log.info({ n: 2, s: long });
  for (let n = 3; n < 400; n++) log.info({ n, s: "ß".repeat(n) });
  log.flush();
  const got = lines(path);
  expect(got.map((l) => l.n)).toEqual(Array.from({ length: 399 }, (_, k) => k + 1));
  expect(got[1].s).toBe(long);
  expect(got[398].s).toBe("ß".repeat(399));
});
