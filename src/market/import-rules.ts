/**
 * Importing bar files, written once for both databases (src/market/README.md § Rules, "Streaming
 * and upsert"): each file is streamed into the port's stage and checked whole by stageFile — every row,
 * duplicates, bar spacing — and only then written in one transaction holding the market write lock:
 * the offset-clash check (refused, or replaced with --replace), the upsert, the universe extension
 * and, when something changed, the data-version bump. A bad file leaves no trace and a good one is
 * never half-written.
 */
import { systemClock } from "../clock.ts";
import type { Interval } from "../engine/types.ts";
import type { BarStage } from "./bar-writer.ts";
import { MAX_ERRORS } from "./csv-bars.ts";
import {
  addFile,
  checkImportOptions,
  clashErrors,
  emptyFileResult,
  emptySummary,
  type FileResult,
  type ImportOptions,
  type ImportSummary,
  type CsvSource,
  fileReadables,
  ImportError,
  type Readable,
  stageFile,
  syntheticRefusal,
  textReadables,
} from "./csv-import.ts";
import { fileKind } from "./bar-files.ts";
import type { DbHandle } from "./db-handle.ts";
import { portOf } from "./sqlite-port.ts";
import type { MarketPort, MarketWrites } from "./market-port.ts";
import { datedInterval, findClashes } from "./offset-clashes.ts";
import { answer, type Rule, run, synchronously } from "./rule.ts";
import { extendUniverseRule } from "./universes.ts";

type Written = Pick<FileResult, "inserted" | "updated" | "replaced"> & { appended: string[]; version: number | null };

/** Imports `sources` in order, each all or nothing. */
export function* importRule(port: MarketPort, sources: readonly Readable[], opts: ImportOptions): Rule<ImportSummary> {
  const interval = checkImportOptions(opts);
  if ((yield* answer(port.universe(opts.universe)))?.source === "synthetic") throw syntheticRefusal(opts.universe);
  const clock = opts.clock ?? systemClock;
  const summary = emptySummary(opts.universe, interval);
  const { stage, close } = port.openStage();
  try {
    for (const src of sources) {
      const result = emptyFileResult(src.file);
      stage.begin();
      try {
        const checked = yield* stageFile(stage, src, { ...opts, interval });
        if (!checked.ok) {
          addFile(summary, { ...result, errors: checked.errors });
          continue;
        }
        const now = clock.now();
        const written = yield* answer(
          port.locked((tx) => run(writeFile(tx, stage, interval, opts.universe, checked.symbols, now, opts.replace === true))),
        );
        if ("clashes" in written) {
          addFile(summary, { ...result, errors: clashErrors(src.file, written.clashes, interval) });
          continue;
        }
        if (written.version !== null) port.bumped?.(written.version);
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
    close();
  }
  summary.dataVersion = yield* answer(port.dataVersion());
  return summary;
}

/** One checked file under the write lock; its clashes instead when it must be refused (nothing written). */
function* writeFile(
  tx: MarketWrites,
  stage: BarStage,
  interval: Interval,
  universe: string,
  symbols: string[],
  now: number,
  replace: boolean,
): Rule<Written | { clashes: ReturnType<typeof findClashes> }> {
  let replaced = 0;
  if (datedInterval(interval)) {
    const stored = yield* answer(tx.storedKeys(symbols, interval));
    const clashes = findClashes(stage.keys(), (s) => stored.get(s) ?? [], replace ? Infinity : MAX_ERRORS + 1);
    // Nothing is written yet, so answering without writing leaves the transaction empty.
    if (clashes.length > 0 && !replace) return { clashes };
    for (const c of clashes) yield* answer(tx.deleteBar(c.symbol, interval, c.stored.ts));
    replaced = clashes.length;
  }
  const { inserted, updated } = yield* answer(tx.upsertStaged(stage, interval));
  const appended = yield* extendUniverseRule(tx, universe, symbols, "imported", now);
  // Caches are keyed by the data version: an import that changed nothing must not flush them.
  const version = inserted + updated + replaced > 0 || appended.length > 0 ? yield* answer(tx.bumpDataVersion()) : null;
  return { inserted, updated, replaced, appended, version };
}

/**
 * Reads and imports CSV files into a SQLite database in the given order, streaming each, without
 * a promise. An unreadable file is reported like a bad one. Gzip and Parquet are read through
 * promises: import them with the MarketStore (`importCsvFiles` there takes every kind).
 */
export function importCsvFiles(h: DbHandle, paths: readonly string[], opts: ImportOptions): ImportSummary {
  const typed = paths.find((p) => fileKind(p) === "gzip" || fileKind(p) === "parquet");
  if (typed !== undefined) throw new ImportError(`${typed}: not a plain CSV file; import gzip and Parquet through the MarketStore`);
  return synchronously(run(importRule(portOf(h), fileReadables(paths), opts)));
}

/** Imports CSV contents already in memory into a SQLite database, in the given order. */
export function importCsvSources(h: DbHandle, sources: readonly CsvSource[], opts: ImportOptions): ImportSummary {
  return synchronously(run(importRule(portOf(h), textReadables(sources), opts)));
}
