/**
 * `import-metadata FILE [--json]`: each symbol's name, sector and industry (metadata-csv.ts), written
 * in one transaction or not at all; exit 1 with `file:line: reason` lines when the file is refused.
 * A change moves the data version, so cached answers pick up the new sectors.
 */
import { readMetadataFile } from "../market/metadata-csv.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";

export async function importMetadataCommand(args: ParsedArgs): Promise<number> {
  if (args.positionals.length !== 1) throw new UsageError("import-metadata needs one CSV file (symbol,name,sector,industry)");
  const file = args.positionals[0]!;
  // The file is read and checked before the database is opened: a refused file touches nothing.
  const read = readMetadataFile(file);
  if (!read.ok) {
    for (const e of read.errors) console.error(e);
    console.error(`graph-stats: ${file} was not imported: nothing written`);
    return 1;
  }
  const stores = await openCommandStores(args);
  try {
    const changed = await stores.market.importMetadata(read.rows, Date.now());
    const sectors = new Set(read.rows.map((r) => r.sector).filter((s) => s !== null)).size;
    if (args.flags.json) console.log(JSON.stringify({ file, rows: read.rows.length, changed, sectors }, null, 2));
    else console.log(`${file}: ${read.rows.length} symbol(s), ${changed} changed, ${sectors} sector(s)`);
    return 0;
  } finally {
    await stores.close();
  }
}
