/**
 * `usage [--user ID] [--days N] [--json]`: per-user admitted, refused and uncounted requests from
 * the audit log, and the unauthenticated requests, which are counted per minute and code
 * (unauthenticated_counts) rather than logged one row each.
 */
import { intFlag, type ParsedArgs } from "./args.ts";
import { openForCommand } from "./run.ts";

interface Row {
  user: string | null;
  day: string;
  admitted: number;
  refused: number;
  uncounted: number;
  /** Unauthenticated rows only: the error code they were refused with. */
  code?: string;
}

/** A row written when the audit queue was full stands for n requests (metering/audit-queue.ts). */
const REQUESTS = "CASE WHEN request_id = 'aggregated' THEN coalesce(json_extract(params, '$.aggregated'), 1) ELSE 1 END";

export function usageCommand(args: ParsedArgs): number {
  const days = intFlag("days", args.flags.days, 1, 3660) ?? 1;
  const since = Math.floor(Date.now() / 86_400_000) * 86_400_000 - (days - 1) * 86_400_000;
  const user = args.flags.user?.[0];
  const opened = openForCommand(args);
  try {
    const known = opened.sqlite
      .query(
        `SELECT user_id AS user, strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS day,
                SUM(counted) AS admitted,
                SUM(CASE WHEN status = 429 THEN ${REQUESTS} ELSE 0 END) AS refused,
                SUM(CASE WHEN counted = 0 AND status <> 429 THEN ${REQUESTS} ELSE 0 END) AS uncounted
           FROM request_log WHERE ts >= ? AND user_id IS NOT NULL AND (? IS NULL OR user_id = ?)
          GROUP BY user_id, day`,
      )
      .all(since, user ?? null, user ?? null) as Row[];
    // No user to filter by: shown only when all users are.
    const anonymous =
      user === undefined
        ? (opened.sqlite
            .query(
              `SELECT NULL AS user, strftime('%Y-%m-%d', minute / 1000, 'unixepoch') AS day, 0 AS admitted, 0 AS refused,
                      SUM(count) AS uncounted, code
                 FROM unauthenticated_counts WHERE minute >= ? GROUP BY day, code`,
            )
            .all(since) as Row[])
        : [];
    const rows = [...known, ...anonymous].sort((a, b) => a.day.localeCompare(b.day) || (a.user ?? "\uffff").localeCompare(b.user ?? "\uffff") || (a.code ?? "").localeCompare(b.code ?? ""));
    if (args.flags.json) console.log(JSON.stringify(rows, null, 2));
    else {
      console.log(["day (UTC)", "user", "admitted", "refused(429)", "uncounted"].join("\t"));
      for (const r of rows) console.log([r.day, r.user ?? `(unauthenticated: ${r.code})`, r.admitted, r.refused, r.uncounted].join("\t"));
    }
    return 0;
  } finally {
    opened.sqlite.close();
  }
}
