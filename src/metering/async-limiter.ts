/**
 * The SQLite meter behind the AsyncLimiter interface the routes use (PostgreSQL's is async by
 * nature): each call runs limiter.ts's synchronous transaction at once and hands back a settled
 * promise, so the embedded default keeps its behaviour and speed.
 */
import type { Limiter } from "./limiter.ts";
import type { AsyncLimiter } from "./limiter-pg.ts";

export function asyncLimiter(l: Limiter): AsyncLimiter {
  // async functions: a throw (locked or full database) becomes a rejection, as on PostgreSQL.
  return {
    peek: async (userId, limits) => l.peek(userId, limits),
    admit: async (req) => l.admit(req),
    finish: async (logId, status, durationMs, opts) => l.finish(logId, status, durationMs, opts),
    finishRefused: (logId, durationMs) => l.finishRefused(logId, durationMs),
    logUnmetered: async (entry) => l.logUnmetered(entry),
    flush: async () => l.flush(),
    writeFailure: () => l.writeFailure(),
  };
}
