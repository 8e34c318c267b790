/** `usage [--user ID] [--days N] [--json]`: per-user admitted, refused and refunded requests from the audit log. */
import { intFlag, type ParsedArgs } from "./args.ts";
import { openForCommand } from "./run.ts";

interface Row {
  user: string | null;
  day: string;
  admitted: number;
  refused: number;
  uncounted: number;
}

export function usageCommand(args: ParsedArgs): number {
  const days = intFlag("days", args.flags.days, 1, 3660) ?? 1;
  const since = Math.floor(Date.now() / 86_400_000) * 86_400_000 - (days - 1) * 86_400_000;
  const user = args.flags.user?.[0];
  const opened = openForCommand(args);
  try {
    const rows = opened.sqlite
      .query(
        `SELECT user_id AS user, strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS day,
                SUM(counted) AS admitted,
                SUM(CASE WHEN status = 429 THEN 1 ELSE 0 END) AS refused,
                SUM(CASE WHEN counted = 0 AND status <> 429 THEN 1 ELSE 0 END) AS uncounted
           FROM request_log WHERE ts >= ? AND (? IS NULL OR user_id = ?)
          GROUP BY user_id, day ORDER BY day, user_id`,
      )
      .all(since, user ?? null, user ?? null) as Row[];
    if (args.flags.json) console.log(JSON.stringify(rows, null, 2));
    else {
      console.log(["day (UTC)", "user", "admitted", "refused(429)", "uncounted"].join("\t"));
      for (const r of rows) console.log([r.day, r.user ?? "(unauthenticated)", r.admitted, r.refused, r.uncounted].join("\t"));
    }
    return 0;
  } finally {
    opened.sqlite.close();
  }
}
