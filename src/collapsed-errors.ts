/**
 * Error lines that repeat, collapsed: while the disk was full every refused request wrote the same
 * `live request failed … database or disk is full` line (57 lines for 60 requests), so the log grew
 * with the traffic just when the disk had no room. An error line identical to another but for its
 * request id is written once per period with that id, and the rest of the period become one line
 * with their count (counted-log.ts). Each request's own access line still names its id and status.
 */
import type { Clock } from "./clock.ts";
import { countedLog, type CountedLog, type CountedLogOptions } from "./counted-log.ts";
import type { Logger } from "./logger.ts";

/** Distinct error lines tracked at once; past it the counts so far are written and tracking starts over. */
export const MAX_KINDS = 64;

/** `logger` with its error lines collapsed; `flush` also writes the counts gathered so far. */
export function collapseRepeatedErrors(logger: Logger, clock: Clock, options: CountedLogOptions = {}): Logger {
  const kinds = new Map<string, CountedLog>();
  const flushCounts = () => {
    for (const kind of kinds.values()) kind.flush();
  };
  return {
    ...logger,
    error(fieldsOrMsg, msg) {
      const { request_id: _id, ...same } = typeof fieldsOrMsg === "string" ? {} : fieldsOrMsg;
      const text = typeof fieldsOrMsg === "string" ? fieldsOrMsg : (msg ?? "");
      const key = `${text}\n${JSON.stringify(same)}`;
      let kind = kinds.get(key);
      if (!kind) {
        if (kinds.size >= MAX_KINDS) {
          flushCounts();
          kinds.clear();
        }
        kind = countedLog(logger, "error", text, clock, { ...options, summary: same });
        kinds.set(key, kind);
      }
      kind.note(typeof fieldsOrMsg === "string" ? {} : fieldsOrMsg);
    },
    flush() {
      flushCounts();
      logger.flush();
    },
  };
}
