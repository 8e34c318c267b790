/**
 * Structured JSON logs (pino): one line per request and a few lifecycle lines. Tokens and
 * secrets are never passed to it; the redact list is a second line of defence.
 */
import pino from "pino";

export type Logger = pino.Logger;

/**
 * `buffered` batches writes (4 KiB) instead of one write(2) per line — the access log is on the
 * hot path of every request. The server flushes it after the listening line and at shutdown.
 */
export function createLogger(level: string, destination: pino.DestinationStream | number = 1, buffered = false): Logger {
  return pino(
    {
      level,
      base: { service: "graph-stats", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: "msg",
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ["token", "secret", "authorization", "*.token", "*.secret", "*.authorization"], censor: "[redacted]" },
    },
    typeof destination === "number"
      ? pino.destination(buffered ? { fd: destination, sync: false, minLength: 4096 } : { fd: destination, sync: true })
      : destination,
  );
}
