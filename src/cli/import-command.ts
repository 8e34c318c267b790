/**
 * `import --universe NAME [--interval 1d] [--default-offset +05:30] FILE...`: exit 0 when every
 * file imported, 1 when any was rejected. --default-offset applies to timestamps without one.
 */
import { importCsvFiles } from "../market/index.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openForCommand } from "./run.ts";

export function importCommand(args: ParsedArgs): number {
  const universe = args.flags.universe;
  if (!universe) throw new UsageError("import needs --universe NAME");
  if (args.positionals.length === 0) throw new UsageError("import needs at least one CSV file");
  offsetMinutes(args.flags["default-offset"]); // a usage error before the database is touched
  const opened = openForCommand(args, true);
  try {
    const s = importCsvFiles(opened, args.positionals, {
      universe,
      interval: args.flags.interval ?? "1d",
      defaultOffsetMin: offsetMinutes(args.flags["default-offset"]),
    });
    if (args.flags.json) console.log(JSON.stringify(s, null, 2));
    else {
      for (const e of s.errors) console.error(e);
      console.log(
        `universe ${s.universe} (${s.interval}): ${s.filesImported} file(s) imported, ${s.filesRejected} rejected; ` +
          `${s.rows} rows (${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged); ` +
          `${s.appended.length} symbol(s) added`,
      );
    }
    return s.filesRejected > 0 ? 1 : 0;
  } finally {
    opened.sqlite.close();
  }
}

/** `+05:30`, `-04:00`, `Z` or whole minutes (`330`) → minutes east of UTC. */
export function offsetMinutes(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (raw === "Z") return 0;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(raw);
  const n = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : /^-?\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || Math.abs(n) > 14 * 60) {
    throw new UsageError(`--default-offset must be like +05:30, -04:00, Z or minutes from -840 to 840, got '${raw}'`);
  }
  return n;
}
