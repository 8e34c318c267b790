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
  emptySummary,
  stageFile,
  syntheticRefusal,
  type FileResult,
  type ImportOptions,
  type ImportSummary,
  type Readable,
} from "../csv-import.ts";
import type { Universe } from "../universes.ts";
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
        const written = await writeFile(deps, stage, interval, opts.universe, checked.symbols, clock.now());
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
): Promise<Pick<FileResult, "inserted" | "updated"> & { appended: string[] }> {
  const out = await deps.sql.begin(async (tx) => {
    // A large file may outlast the pool's statement timeout; this transaction is bounded by the file.
    await tx`SET LOCAL statement_timeout = 0`;
    await lockMarket(tx);
    let inserted = 0;
    let updated = 0;
    for (const batch of stage.batches(PG_BATCH)) {
      const n = await upsertBars(tx, interval, batch);
      inserted += n.inserted;
      updated += n.updated;
    }
    const appended = await extendUniversePg(tx, universe, symbols, "imported", now);
    // Caches are keyed by the data version: an import that changed nothing must not flush them.
    const version = inserted + updated > 0 || appended.length > 0 ? await bumpDataVersionPg(tx) : null;
    return { inserted, updated, appended, version };
  });
  if (out.version !== null) deps.bumped(out.version);
  return out;
}
