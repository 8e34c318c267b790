/**
 * `usage [--user ID] [--days N] [--json]`: per-user admitted, refused and uncounted requests from
 * the audit log, and the unauthenticated requests, which are counted per minute and code
 * (unauthenticated_counts) rather than logged one row each.
 */
import { intFlag, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { userIdOf } from "./user-ref.ts";
import { DAY_MS, utcDayStart } from "../metering/windows.ts";

export async function usageCommand(args: ParsedArgs): Promise<number> {
  const days = intFlag("days", args.flags.days, 1, 3660) ?? 1;
  const since = utcDayStart(Date.now()) - (days - 1) * DAY_MS;
  const ref = args.flags.user?.[0];
  const stores = await openCommandStores(args);
  try {
    const user = ref === undefined ? undefined : await userIdOf(stores, ref);
    const known = await stores.usage.known(since, user);
    // No user to filter by: shown only when all users are.
    const anonymous = user === undefined ? await stores.usage.anonymous(since) : [];
    const rows = [...known, ...anonymous].sort(
      (a, b) =>
        a.day.localeCompare(b.day) || (a.user ?? "\uffff").localeCompare(b.user ?? "\uffff") || (a.code ?? "").localeCompare(b.code ?? ""),
    );
    if (args.flags.json) console.log(JSON.stringify(rows, null, 2));
    else {
      console.log(["day (UTC)", "user", "admitted", "refused(429)", "uncounted"].join("\t"));
      for (const r of rows) console.log([r.day, r.user ?? `(unauthenticated: ${r.code})`, r.admitted, r.refused, r.uncounted].join("\t"));
    }
    return 0;
  } finally {
    await stores.close();
  }
}
