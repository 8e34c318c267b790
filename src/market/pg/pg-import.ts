/**
 * Importing CSVs into PostgreSQL with the SQLite importer's semantics: each file is staged and
 * checked whole by the very same code (csv-import.ts stageFile, in a private temporary SQLite
 * stage, so memory stays flat however large the file), then written in one PostgreSQL
 * transaction — bars upserted in unnest() batches, the universe extended and, when something
 * changed, the data version bumped. A bad file writes nothing; a good one is never half-written.
 */
import { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { systemClock } from "../../clock.ts";
import type { Interval } from "../../engine/types.ts";
import { BarStage } from "../bar-writer.ts";
import {
  emptyFileResult,
  addFile,
  checkImportOptions,
  clashErrors,
  emptySummary,
  stageFile,
  syntheticRefusal,
  type FileResult,
  type ImportOptions,
  type ImportSummary,
  type Readable,
} from "../csv-import.ts";
import { MAX_ERRORS } from "../csv-bars.ts";
import { type Clash, datedInterval, findClashes, type StoredKey } from "../offset-clashes.ts";
import type { Universe } from "../universes.ts";
import { textArray } from "../../../db/pg/arrays.ts";
import { bumpDataVersionPg, extendUniversePg, lockMarket, PG_BATCH, upsertBars } from "./pg-writes.ts";

export interface PgImportDeps {
  sql: SQL;
  getUniverse(name: string): Promise<Universe | null>;
  dataVersion(): Promise<number>;
  /** Told the new version after a file changed something (this instance's caches follow at once). */
  bumped(version: number): void;
}

export async function importIntoPg(deps: PgImportDeps, sources: readonly Readable[], opts: ImportOptions): Promise<ImportSummary> {
  const interval = checkImportOptions(opts);
  if ((await deps.getUniverse(opts.universe))?.source === "synthetic") throw syntheticRefusal(opts.universe);
  const clock = opts.clock ?? systemClock;
  const summary = emptySummary(opts.universe, interval);
  // An unnamed database is a private temporary file: the stage never touches the shared store.
  const scratch = new Database("");
  const stage = new BarStage(scratch);
  try {
    for (const src of sources) {
      const result = emptyFileResult(src.file);
      stage.begin();
      try {
        const checked = stageFile(stage, src, { ...opts, interval });
        if (!checked.ok) {
          addFile(summary, { ...result, errors: checked.errors });
          continue;
        }
        let written: Awaited<ReturnType<typeof writeFile>>;
        try {
          written = await writeFile(deps, stage, interval, opts.universe, checked.symbols, clock.now(), opts.replace === true);
        } catch (err) {
          if (!(err instanceof ClashRefusal)) throw err;
          addFile(summary, { ...result, errors: clashErrors(src.file, err.clashes, interval) });
          continue;
        }
        addFile(summary, {
          ...result,
          ...written,
          ok: true,
          symbols: checked.symbols,
          rows: checked.rows,
          unchanged: checked.rows - written.inserted - written.updated,
        });
      } finally {
        stage.discard();
      }
    }
  } finally {
    scratch.close();
  }
  summary.dataVersion = await deps.dataVersion();
  return summary;
}

async function writeFile(
  deps: PgImportDeps,
  stage: BarStage,
  interval: Interval,
  universe: string,
  symbols: string[],
  now: number,
  replace: boolean,
): Promise<Pick<FileResult, "inserted" | "updated" | "replaced"> & { appended: string[] }> {
  const out = await deps.sql.begin(async (tx) => {
    // A large file may outlast the pool's statement timeout; this transaction is bounded by the file.
    await tx`SET LOCAL statement_timeout = 0`;
    await lockMarket(tx);
    let replaced = 0;
    if (datedInterval(interval)) {
      const rows: [string, number, number][] = await tx`SELECT symbol, ts::float8, offset_min FROM bars
        WHERE symbol = ANY(${textArray(symbols)}::text[]) AND interval = ${interval}`.values();
      const stored = new Map<string, StoredKey[]>();
      for (const [s, ts, offsetMin] of rows) {
        if (!stored.has(s)) stored.set(s, []);
        stored.get(s)!.push({ ts, offsetMin });
      }
      const clashes = findClashes(stage.keys(), (s) => stored.get(s) ?? [], replace ? Infinity : MAX_ERRORS + 1);
      if (clashes.length > 0 && !replace) throw new ClashRefusal(clashes);
      for (const c of clashes) await tx`DELETE FROM bars WHERE symbol = ${c.symbol} AND interval = ${interval} AND ts = ${c.stored.ts}`;
      replaced = clashes.length;
    }
    let inserted = 0;
    let updated = 0;
    for (const batch of stage.batches(PG_BATCH)) {
      const n = await upsertBars(tx, interval, batch);
      inserted += n.inserted;
      updated += n.updated;
    }
    const appended = await extendUniversePg(tx, universe, symbols, "imported", now);
    // Caches are keyed by the data version: an import that changed nothing must not flush them.
    const version = inserted + updated + replaced > 0 || appended.length > 0 ? await bumpDataVersionPg(tx) : null;
    return { inserted, updated, replaced, appended, version };
  });
  if (out.version !== null) deps.bumped(out.version);
  return out;
}

/** A file whose dated bars clash with stored ones, without --replace: its transaction rolls back. */
class ClashRefusal extends Error {
  constructor(readonly clashes: Clash[]) {
    super("bars on dates stored at another offset");
  }
}
