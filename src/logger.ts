/**
 * Structured JSON logs (pino): one line per request and a few lifecycle lines. Tokens and
 * secrets are never passed to it; the redact list is a second line of defence.
 */
import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string, destination: pino.DestinationStream | number = 1): Logger {
  return pino(
    {
      level,
      base: { service: "graph-stats", pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: "msg",
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: ["token", "secret", "authorization", "*.token", "*.secret", "*.authorization"], censor: "[redacted]" },
    },
    typeof destination === "number" ? pino.destination({ fd: destination, sync: true }) : destination,
  );
}
