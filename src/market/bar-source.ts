/**
 * What a reader of a bar file (CSV, gzipped CSV, Parquet) hands the importer: text records, the
 * header first, and — for a typed format — the question which column is which field.
 */
import type { ColumnIndex } from "./csv-columns.ts";

/** One record (a header or a row); null is a missing value, which only Parquet has. */
export type FieldSink = (fields: readonly (string | null)[], line: number) => void;

/** What stageFile tells a typed reader once it has the header: which column is which field. */
export interface HeaderAnswer {
  col: ColumnIndex;
  /** The offset for times that carry none (--default-offset); undefined when not given. */
  defaultOffsetMin?: number;
}

/** A problem with a file as a whole (not gzip, not Parquet, a column of the wrong type), reported as `file: reason`. */
export class SourceError extends Error {
  override name = "SourceError";
}
