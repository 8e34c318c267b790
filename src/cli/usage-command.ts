/**
 * `usage [--user ID] [--days N] [--json]`: per-user admitted, refused and uncounted requests and
 * the compute time of the admitted ones from the audit log, and the unauthenticated requests, which are counted per minute and code
 * (unauthenticated_counts) rather than logged one row each.
 */
import { exportFormat, exportRange } from "../metering/usage-export.ts";
import { StatusError } from "../status-error.ts";
import { intFlag, type ParsedArgs, UsageError } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { userIdOf } from "./user-ref.ts";
import { DAY_MS, utcDayStart } from "../metering/windows.ts";

export async function usageCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals[0] === "export") return usageExport(args);
  if (args.positionals.length > 0) throw new UsageError(`usage takes no argument but 'export' (got '${args.positionals[0]}')`);
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
    if (args.flags.json)
      console.log(
        JSON.stringify(
          rows.map(({ computeMs, ...r }) => (computeMs === undefined ? r : { ...r, compute_ms: computeMs })),
          null,
          2,
        ),
      );
    else {
      console.log(["day (UTC)", "user", "admitted", "refused(429)", "uncounted", "compute(ms)"].join("\t"));
      for (const r of rows)
        console.log(
          [
            r.day,
            r.user ?? `(unauthenticated: ${r.code})`,
            r.admitted,
            r.refused,
            r.uncounted,
            r.computeMs === undefined ? "" : Math.round(r.computeMs),
          ].join("\t"),
        );
    }
    return 0;
  } finally {
    await stores.close();
  }
}

/**
 * `usage export --since DAY [--until DAY] [--format cloudevents|csv]`: counted requests to standard
 * output, a page at a time (console.log writes each page before the next is read, so memory stays
 * bounded: docs/operator.md § Billing export gives the figure).
 */
async function usageExport(args: ParsedArgs): Promise<number> {
  let range: ReturnType<typeof exportRange>;
  let format: ReturnType<typeof exportFormat>;
  try {
    range = exportRange(args.flags.since, args.flags.until, Date.now());
    format = exportFormat(args.flags.format);
  } catch (err) {
    if (err instanceof StatusError) throw new UsageError(`usage export: --${err.message}`);
    throw err;
  }
  const stores = await openCommandStores(args);
  try {
    for await (const chunk of stores.usageExport.chunks(range, format)) console.log(chunk.slice(0, -1));
    return 0;
  } finally {
    await stores.close();
  }
}
