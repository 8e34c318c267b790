/**
 * The files `import` reads, and how each is read: plain CSV (csv-records.ts), gzipped CSV
 * (gzip-records.ts) and Parquet (parquet-records.ts). The kind is the file's magic bytes; a name
 * that promises a kind (`.gz`, `.parquet`) the bytes do not have is refused rather than read as
 * CSV. Every reader hands stageFile the same text records, so every check and message is shared.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { type FieldSink, type HeaderAnswer, SourceError } from "./bar-source.ts";
import { readCsvFile, readCsvText } from "./csv-records.ts";
import { readGzipCsvFile } from "./gzip-records.ts";
import { readParquetFile } from "./parquet-records.ts";

export { SourceError };
export type { FieldSink, HeaderAnswer };

/** A file to import: its name (in messages and, for per-symbol files, the symbol) and its reader. */
export interface Readable {
  file: string;
  /** What the N in `file:N: reason` counts: CSV lines (the header is line 1) or Parquet rows (the first is row 1). */
  unit: "line" | "row";
  /**
   * Sends the header, then every row, to `sink`; CSV synchronously, gzip and Parquet as a promise.
   * A typed reader calls `header()` after sending the header (null: stageFile refused it, stop).
   */
  read: (sink: FieldSink, progress?: (bytes: number, total: number) => void, header?: () => HeaderAnswer | null) => void | Promise<void>;
}

export type FileKind = "csv" | "gzip" | "parquet";

const GZIP_NAME = /\.(gz|gzip)$/i;
const PARQUET_NAME = /\.(parquet|pq)$/i;

/** The kind of file at `path`, from its first bytes; or the reason it cannot be what its name says. */
export function fileKind(path: string): FileKind | SourceError {
  const head = firstBytes(path, 4);
  const gzip = head !== null && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const parquet = head !== null && head.length === 4 && head.toString("latin1") === "PAR1";
  if (head === null) return PARQUET_NAME.test(path) ? "parquet" : GZIP_NAME.test(path) ? "gzip" : "csv"; // unreadable: the reader says why
  if (PARQUET_NAME.test(path) && !parquet) return new SourceError("not a Parquet file (it does not start with the bytes PAR1)");
  if (GZIP_NAME.test(path) && !gzip) return new SourceError("not a gzip file (it does not start with the gzip magic bytes 1f 8b)");
  return parquet ? "parquet" : gzip ? "gzip" : "csv";
}

function firstBytes(path: string, n: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Readers for files on disk, each chosen by the file's kind. */
export function fileReadables(paths: readonly string[]): Readable[] {
  return paths.map((file): Readable => {
    const kind = fileKind(file);
    if (kind instanceof SourceError) {
      return {
        file,
        unit: "line",
        read: () => {
          throw kind;
        },
      };
    }
    if (kind === "parquet") return { file, unit: "row", read: (sink, progress, header) => readParquetFile(file, sink, progress, header) };
    if (kind === "gzip") return { file, unit: "line", read: (sink, progress) => readGzipCsvFile(file, sink, progress) };
    return { file, unit: "line", read: (sink, progress) => readCsvFile(file, sink, progress) };
  });
}

/** A CSV already in memory: its name (used in messages and, for per-symbol files, as the symbol) and content. */
export interface CsvSource {
  file: string;
  text: string;
}

export function textReadables(sources: readonly CsvSource[]): Readable[] {
  return sources.map(({ file, text }) => ({ file, unit: "line", read: (sink) => readCsvText(text, sink) }));
}
