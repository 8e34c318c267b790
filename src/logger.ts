/**
 * Structured JSON logs: one line per request plus a few lifecycle lines. Tokens and secrets are
 * never passed to it.
 *
 * Written by hand instead of pino: measured in-process on Bun 1.4, a pino access-log line cost
 * 3.5–6.6 µs (sync/async destination) against 0.8 µs for JSON.stringify plus a batched write —
 * on /health that was a quarter of the whole request's CPU (bench/http.bench.ts). The service's
 * lines are batched and written with one write(2) every FLUSH_MS (or at FLUSH_BYTES): flushing once
 * per event-loop turn still cost ~11% of /health's CPU in write(2) calls under load.
 */
import { writeSync } from "node:fs";
import { isoTime } from "./clock.ts";

export const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;
export type LevelName = keyof typeof LEVELS;
type Fields = Record<string, unknown>;

export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  isLevelEnabled(level: LevelName): boolean;
  /**
   * The access-log line of one request, at info level: the same bytes as `info(entry)` with
   * `duration_ms: durationUs / 1000`. Arguments rather than an entry object, and the duration in
   * integer microseconds, so no object is made and no float is formatted per request.
   */
  request(requestId: string, method: string, path: string, status: number, durationUs: number, userId: string | null): void;
  /** Writes any buffered lines now (after the listening line, at shutdown). */
  flush(): void;
}

/** Strings JSON.stringify writes as they are, between quotes: no quote, backslash, control character or surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const jsonString = (s: string) => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));
const jsonNumber = (x: number) => (Number.isFinite(x) ? String(x) : "null");

/**
 * String(us / 1000) for a whole number of microseconds (up to ~11 days), from integers: formatting
 * the float was 109 ns against 28 ns in-process (logger.test.ts compares them to 2 s and beyond).
 */
export function msFromUs(us: number): string {
  if (!(Number.isInteger(us) && us >= 0 && us <= 1e12)) return jsonNumber(us / 1000);
  const ms = Math.floor(us / 1000);
  const f = us - ms * 1000;
  if (f === 0) return `${ms}`;
  if (f % 100 === 0) return `${ms}.${f / 100}`;
  if (f % 10 === 0) return `${ms}.${f < 100 ? "0" : ""}${f / 10}`;
  return `${ms}.${f < 10 ? "00" : f < 100 ? "0" : ""}${f}`;
}

type LogFn = (fieldsOrMsg: Fields | string, msg?: string) => void;

const FLUSH_BYTES = 16 * 1024;
/** Longest a buffered line waits; short enough for `tail -f`, long enough to batch a busy server. */
export const FLUSH_MS = 20;

/**
 * `fd` 1 (stdout) for the service, 2 for one-shot commands (their stdout is the command's output).
 * `buffered` batches lines for up to FLUSH_MS (flushed at exit too); unbuffered writes each line at once.
 */
export function createLogger(level: string, fd = 1, buffered = false): Logger {
  const threshold = LEVELS[level as LevelName] ?? LEVELS.info;
  const prefix = `,"service":"graph-stats","pid":${process.pid}`;
  // Lines are encoded into one byte buffer as they come (UTF-8 needs at most 3 bytes per UTF-16 unit),
  // so no string outlives its request: under load the batched strings survived into the old
  // generation of the garbage collector.
  const buf = Buffer.allocUnsafe(FLUSH_BYTES + 4096);
  let used = 0;
  let scheduled = false;

  const writeOut = (bytes: Uint8Array | string, length?: number) => {
    try {
      if (typeof bytes === "string") writeSync(fd, bytes);
      else writeSync(fd, bytes, 0, length);
    } catch {
      // A closed stdout must not take the service down; the audit log is in the database.
    }
  };

  const flush = () => {
    scheduled = false;
    if (used === 0) return;
    const n = used;
    used = 0;
    writeOut(buf, n);
  };

  // A process that exits (fatal error, process.exit) still writes what it logged.
  if (buffered) process.once("exit", flush);

  const write = (line: string) => {
    if (used + 3 * line.length > buf.length) {
      flush();
      if (3 * line.length > buf.length) {
        writeOut(line);
        return;
      }
    }
    used += buf.write(line, used, "utf8");
    if (!buffered || used >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      // unref: a pending flush must not keep a finished process alive (shutdown flushes itself).
      setTimeout(flush, FLUSH_MS).unref();
    }
  };

  const emit = (name: LevelName, fieldsOrMsg: Fields | string, msg?: string) => {
    const fields = typeof fieldsOrMsg === "string" ? {} : fieldsOrMsg;
    const text = typeof fieldsOrMsg === "string" ? fieldsOrMsg : msg;
    const body = JSON.stringify(text === undefined ? fields : { ...fields, msg: text });
    write(`{"level":"${name}","time":"${isoTime(Date.now())}"${prefix}${body.length > 2 ? "," : ""}${body.slice(1)}\n`);
  };

  // Written by hand rather than JSON.stringify of an object: the access line is the one line per
  // request, and stringify was ~10% of /health's CPU under load (bench/http.bench.ts). The test
  // checks it is byte-identical to info(entry).
  const infoEnabled = LEVELS.info >= threshold;
  const request = (requestId: string, method: string, path: string, status: number, durationUs: number, userId: string | null) => {
    if (!infoEnabled) return;
    write(
      `{"level":"info","time":"${isoTime(Date.now())}"${prefix},"request_id":${jsonString(requestId)},"method":${jsonString(method)},` +
        `"path":${jsonString(path)},"status":${jsonNumber(status)},"duration_ms":${msFromUs(durationUs)},` +
        `"user_id":${userId === null ? "null" : jsonString(userId)}}\n`,
    );
  };

  const fn =
    (name: LevelName): LogFn =>
    (fieldsOrMsg, msg) => {
      if (LEVELS[name] >= threshold) emit(name, fieldsOrMsg, msg);
    };

  return {
    trace: fn("trace"),
    debug: fn("debug"),
    info: fn("info"),
    warn: fn("warn"),
    error: fn("error"),
    fatal: fn("fatal"),
    isLevelEnabled: (name) => LEVELS[name] >= threshold,
    request,
    flush,
  };
}
