/**
 * A logger that keeps its lines in memory, as the JSON lines src/logger.ts would write them
 * (level, msg and fields): tests read what was logged without a file or a wait for its flush.
 */
import type { LevelName, Logger } from "../../src/logger.ts";

export interface LoggedLine {
  level: LevelName;
  msg?: string;
  [field: string]: unknown;
}

export function captureLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: LevelName) =>
    (fieldsOrMsg: Record<string, unknown> | string, msg?: string): void => {
      const fields = typeof fieldsOrMsg === "string" ? {} : fieldsOrMsg;
      const text = typeof fieldsOrMsg === "string" ? fieldsOrMsg : msg;
      lines.push({ ...fields, level, ...(text === undefined ? {} : { msg: text }) });
    };
  return {
    lines,
    trace: at("trace"),
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    fatal: at("fatal"),
    isLevelEnabled: () => true,
    request: (request_id, method, path, status, durationUs, user_id) =>
      lines.push({ level: "info", request_id, method, path, status, duration_ms: durationUs / 1000, user_id }),
    flush: () => {},
  };
}
