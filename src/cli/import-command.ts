/** `import --universe NAME [--interval 1d] FILE...`: exit 0 when every file imported, 1 when any was rejected. */
import { importCsvFiles } from "../market/index.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openForCommand } from "./run.ts";

export function importCommand(args: ParsedArgs): number {
  const universe = args.flags.universe;
  if (!universe) throw new UsageError("import needs --universe NAME");
  if (args.positionals.length === 0) throw new UsageError("import needs at least one CSV file");
  const opened = openForCommand(args);
  try {
    const s = importCsvFiles(opened, args.positionals, { universe, interval: args.flags.interval ?? "1d" });
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
