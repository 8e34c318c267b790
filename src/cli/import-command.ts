/**
 * `import --universe NAME [--interval 1d] [--default-offset +05:30] [--map field=Column,...]
 * [--price close|adj_close] [--replace] FILE...`: exit 0 when every file imported, 1 when any was rejected.
 * Each FILE is CSV, gzipped CSV or Parquet (src/market/bar-files.ts).
 * --default-offset applies to timestamps without one. On a terminal, progress goes to stderr.
 * Through the MarketStore: into the SQLite file, or with --database-url into the shared
 * PostgreSQL, where every instance serves it within about a second (its data version poll).
 */
import type { ImportProgress } from "../market/csv-import.ts";
import { parseColumnMap, type PriceColumn } from "../market/csv-columns.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";

export async function importCommand(args: ParsedArgs): Promise<number> {
  const universe = args.flags.universe;
  if (!universe) throw new UsageError("import needs --universe NAME");
  if (args.positionals.length === 0) throw new UsageError("import needs at least one file (CSV, .csv.gz or Parquet)");
  // Usage errors before the database is touched.
  const defaultOffsetMin = offsetMinutes(args.flags["default-offset"]);
  const price = priceFlag(args.flags.price);
  let map: ReturnType<typeof parseColumnMap>;
  try {
    map = parseColumnMap(args.flags.map ?? []);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const progress = process.stderr.isTTY ? terminalProgress() : undefined;
  const opened = await openCommandStores(args, true);
  try {
    const s = await opened.market.importCsvFiles(args.positionals, {
      universe,
      interval: args.flags.interval ?? "1d",
      defaultOffsetMin,
      map,
      price,
      replace: args.flags.replace === true,
      onProgress: progress?.update,
    });
    progress?.clear();
    if (args.flags.json) console.log(JSON.stringify(s, null, 2));
    else {
      for (const e of s.errors) console.error(e);
      console.log(
        `universe ${s.universe} (${s.interval}): ${s.filesImported} file(s) imported, ${s.filesRejected} rejected; ` +
          `${s.rows} rows (${s.inserted} new, ${s.updated} updated, ${s.unchanged} unchanged` +
          `${s.replaced > 0 ? `, ${s.replaced} stored at another offset replaced` : ""}); ` +
          `${s.appended.length} symbol(s) added`,
      );
    }
    return s.filesRejected > 0 ? 1 : 0;
  } finally {
    progress?.clear();
    await opened.close();
  }
}

function priceFlag(raw: string | undefined): PriceColumn | undefined {
  if (raw === undefined || raw === "close" || raw === "adj_close") return raw;
  throw new UsageError(`--price must be close or adj_close, got '${raw}'`);
}

/** One status line on stderr, rewritten in place; only used when stderr is a terminal. */
function terminalProgress() {
  let shown = false;
  return {
    update(p: ImportProgress) {
      const pct = p.totalBytes > 0 ? Math.floor((100 * p.bytes) / p.totalBytes) : 100;
      process.stderr.write(`\r\x1b[K${p.file}: ${pct}% (${p.rows.toLocaleString("en")} rows read)`);
      shown = true;
    },
    clear() {
      if (shown) process.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
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
