/**
 * A log line anyone can cause once per request (a forged provider error in the sign-in callback's
 * URL), written once per period with a count instead of once per request: 300 forged callbacks
 * wrote 300 WARN lines (issue #41 item 9), so how much the log grew was the sender's choice. The
 * first of a period is written at once with its details; the rest of the period become one line,
 * `repeated: n`, when the period ends (a timer) or when the next one comes after it.
 */
import { isoTime, type Clock } from "./clock.ts";
import type { Logger } from "./logger.ts";

type Fields = Record<string, unknown>;

export interface CountedLog {
  /** One occurrence: written now when it is the period's first, else counted. */
  note(fields: Fields): void;
  /** Writes the count gathered so far, if any (the timer calls it at the end of a period). */
  flush(): void;
}

export interface CountedLogOptions {
  periodMs?: number;
  /** Runs `fn` after `ms`; tests pass their own. Default: an unref'd timer, which never keeps the process up. */
  schedule?: (fn: () => void, ms: number) => void;
  /** Written on the count's line beside it: what the repeated lines had in common (none by default). */
  summary?: Fields;
}

export function countedLog(
  logger: Logger,
  level: "error" | "warn" | "info",
  msg: string,
  clock: Clock,
  { periodMs = 60_000, schedule = (fn, ms) => void setTimeout(fn, ms).unref(), summary = {} }: CountedLogOptions = {},
): CountedLog {
  let periodStart = Number.NEGATIVE_INFINITY;
  let repeated = 0;
  let scheduled = false;
  const flush = () => {
    if (repeated === 0) return;
    logger[level]({ ...summary, repeated, since: isoTime(periodStart), period_s: periodMs / 1000 }, msg);
    repeated = 0;
  };
  return {
    note(fields) {
      const now = clock.now();
      if (now - periodStart >= periodMs) {
        flush();
        periodStart = now;
        logger[level](fields, msg);
        return;
      }
      repeated++;
      if (scheduled) return;
      scheduled = true;
      schedule(
        () => {
          scheduled = false;
          flush();
        },
        periodStart + periodMs - now,
      );
    },
    flush,
  };
}
