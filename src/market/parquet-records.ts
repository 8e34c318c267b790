/**
 * Parquet bar files, read with hyparquet one row group at a time (memory bounded by the largest
 * row group, itself bounded: MAX_ROW_GROUP_BYTES), only the columns the import uses. Each row is
 * handed on as the text a CSV of the same bars would hold, so the checks, messages and
 * all-or-nothing rule are the CSV import's (csv-bars.ts); `file:N` counts rows, the first is 1.
 *
 * Column types: the timestamp may be text (ISO 8601, as in CSV), a DATE, or a TIMESTAMP with its
 * unit (millis, micros, nanos; INT96 as Spark writes it). A TIMESTAMP adjusted to UTC is an
 * instant, stored with --default-offset (UTC when not given) as its local offset; one that is not
 * is local wall-clock time, read like a CSV time without an offset (a plain date when at
 * midnight). Prices and volume are numbers (FLOAT, DOUBLE, INTs, DECIMAL); the symbol is text.
 * Anything else is refused as a whole before a row is read.
 */
import { open } from "node:fs/promises";
import { type FileMetaData, parquetMetadataAsync, parquetRead, parquetSchema, type SchemaElement, type SchemaTree } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { type FieldSink, type HeaderAnswer, SourceError } from "./bar-source.ts";
import type { CsvField } from "./csv-columns.ts";
import { shownValue } from "./shown-value.ts";
import { formatOffset } from "./timestamps.ts";

/**
 * The most uncompressed bytes of the columns read that one row group may hold: its decoded
 * columns are in memory at once. Far above the row groups writers make by default (pyarrow's
 * 1 Mi rows of bars are about 50 MiB).
 */
export const MAX_ROW_GROUP_BYTES = 128 * 2 ** 20;

const DAY_MS = 86_400_000;

/** How a timestamp column's values become text. */
type TimeKind = "text" | "instant" | "local" | "date";
type Kind = TimeKind | "number";

const INTEGER_TYPES = new Set(["INT_8", "INT_16", "INT_32", "INT_64", "UINT_8", "UINT_16", "UINT_32", "UINT_64", "DECIMAL"]);

function describe(el: SchemaElement): string {
  const logical = el.logical_type
    ? el.logical_type.type === "TIMESTAMP"
      ? `TIMESTAMP(${el.logical_type.unit}, ${el.logical_type.isAdjustedToUTC ? "UTC" : "local"})`
      : el.logical_type.type
    : el.converted_type;
  return logical ? `${el.type} (${logical})` : `${el.type}`;
}

/** The column's kind for `field`, or why it cannot hold that field. */
export function columnKind(field: CsvField, node: SchemaTree): Kind | SourceError {
  const refuse = (why: string) => new SourceError(why);
  const el = node.element;
  const name = shownValue(el.name);
  if (node.children.length > 0 || el.type === undefined)
    return refuse(`column ${name} (${field}) is a nested column: expected a plain column`);
  if (el.repetition_type === "REPEATED") return refuse(`column ${name} (${field}) is a repeated (list) column: expected one value per row`);
  const lt = el.logical_type?.type;
  const ct = el.converted_type;
  const text =
    el.type === "BYTE_ARRAY" &&
    (lt === undefined || lt === "STRING" || lt === "ENUM") &&
    (ct === undefined || ct === "UTF8" || ct === "ENUM");
  if (field === "symbol") return text ? "text" : refuse(`column ${name} (symbol) is ${describe(el)}: expected text (a STRING column)`);
  if (field === "timestamp") {
    if (text) return "text";
    if (lt === "TIMESTAMP") return el.logical_type!.type === "TIMESTAMP" && el.logical_type!.isAdjustedToUTC ? "instant" : "local";
    if (ct === "TIMESTAMP_MILLIS" || ct === "TIMESTAMP_MICROS" || (el.type === "INT96" && ct === undefined)) return "instant";
    if (ct === "DATE" || lt === "DATE") return "date";
    return refuse(
      `column ${name} (timestamp) is ${describe(el)}: expected a TIMESTAMP with its unit (MILLIS, MICROS or NANOS), ` +
        "a DATE, or ISO 8601 text such as 2024-01-02T09:15:00+05:30",
    );
  }
  const numeric =
    (el.type === "DOUBLE" || el.type === "FLOAT" || el.type === "INT32" || el.type === "INT64") &&
    (lt === undefined || lt === "INTEGER" || lt === "DECIMAL") &&
    (ct === undefined || INTEGER_TYPES.has(ct));
  const decimal = (el.type === "FIXED_LEN_BYTE_ARRAY" || el.type === "BYTE_ARRAY") && (ct === "DECIMAL" || lt === "DECIMAL");
  if (numeric || decimal) return "number";
  return refuse(`column ${name} (${field}) is ${describe(el)}: expected numbers (DOUBLE, FLOAT, an INT or DECIMAL)`);
}

/** ISO 8601 at `offsetMin` with millis only when there are any: `2024-01-02T09:15:00+05:30`. */
function isoAt(ms: number, offsetMin: number | null): string {
  if (!(Math.abs(ms) <= 8.64e15)) return `${ms} ms since 1970`;
  const iso = new Date(ms + (offsetMin ?? 0) * 60_000).toISOString();
  const body = iso.endsWith(".000Z") ? iso.slice(0, -5) : iso.slice(0, -1);
  return offsetMin === null ? body : body + formatOffset(offsetMin);
}

/** The text a CSV would hold for `value` of a column of `kind`; null stays null. */
function asText(value: unknown, kind: Kind, offsetMin: number): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case "number":
    case "text":
      return String(value);
    case "instant":
      return isoAt(value as number, offsetMin);
    case "local":
      // Local midnight is a date (pandas writes dates as such timestamps); other times need an offset, as in CSV.
      return (value as number) % DAY_MS === 0 ? isoAt(value as number, null).slice(0, 10) : isoAt(value as number, null);
    case "date":
      return isoAt((value as number) * DAY_MS, null).slice(0, 10);
  }
}

const floorDiv = (v: bigint, d: bigint) => Number((v < 0n ? v - d + 1n : v) / d);

/** Timestamps as epoch milliseconds (floored, as CSV floors fractions of a millisecond), dates as days. */
const PARSERS = {
  timestampFromMilliseconds: (v: bigint) => (v === null || v === undefined ? null : Number(v)),
  timestampFromMicroseconds: (v: bigint) => (v === null || v === undefined ? null : floorDiv(v, 1000n)),
  timestampFromNanoseconds: (v: bigint) => (v === null || v === undefined ? null : floorDiv(v, 1_000_000n)),
  dateFromDays: (v: number) => v,
};

/** The file as hyparquet's AsyncBuffer, read with positional reads. */
async function fileBuffer(path: string) {
  const fh = await open(path, "r");
  const size = (await fh.stat()).size;
  return {
    close: () => fh.close(),
    buffer: {
      byteLength: size,
      async slice(start: number, end = size): Promise<ArrayBuffer> {
        const out = new Uint8Array(Math.max(0, Math.min(end, size) - start));
        let at = 0;
        while (at < out.length) {
          const { bytesRead } = await fh.read(out, at, out.length - at, start + at);
          if (bytesRead === 0) break;
          at += bytesRead;
        }
        return at === out.length ? out.buffer : out.buffer.slice(0, at);
      },
    },
  };
}

const message = (err: unknown) => shownValue(err instanceof Error ? err.message : String(err)).slice(1, -1);

/**
 * Reads the Parquet file at `path`: the top-level column names as the header (line 0), then, once
 * `header()` says which columns are used, each row. Rejects with SourceError for a file that is
 * not Parquet or has a column of the wrong type, the fs error when it cannot be read.
 */
export async function readParquetFile(
  path: string,
  sink: FieldSink,
  progress?: (bytes: number, total: number) => void,
  header?: () => HeaderAnswer | null,
  maxGroupBytes = MAX_ROW_GROUP_BYTES,
): Promise<void> {
  const { buffer: file, close } = await fileBuffer(path);
  try {
    let metadata: FileMetaData;
    let schema: SchemaTree;
    try {
      metadata = await parquetMetadataAsync(file);
      schema = parquetSchema(metadata);
    } catch (err) {
      throw new SourceError(`not a readable Parquet file: ${message(err)}`);
    }
    const columns = schema.children;
    const names = columns.map((c) => c.element.name);
    sink(names, 0);
    const answer = header?.();
    if (!answer) return;
    const used: { index: number; kind: Kind }[] = [];
    for (const [field, index] of Object.entries(answer.col) as [CsvField, number][]) {
      if (index < 0) continue;
      const kind = columnKind(field, columns[index]!);
      if (kind instanceof SourceError) throw kind;
      used.push({ index, kind });
    }
    const offsetMin = answer.defaultOffsetMin ?? 0;
    const record: (string | null)[] = names.map(() => "");
    let groupStart = 0;
    let bytes = 0;
    for (const [g, group] of metadata.row_groups.entries()) {
      const rows = Number(group.num_rows);
      const wanted = new Set(used.map((u) => names[u.index]));
      const chunks = group.columns.filter((c) => wanted.has(c.meta_data?.path_in_schema[0] ?? ""));
      const size = chunks.reduce((n, c) => n + Number(c.meta_data?.total_uncompressed_size ?? 0n), 0);
      if (size > maxGroupBytes) {
        throw new SourceError(
          `row group ${g + 1} holds ${Math.ceil(size / 2 ** 20)} MiB of the columns read (at most ${maxGroupBytes / 2 ** 20} MiB): ` +
            "write the file with smaller row groups (e.g. pyarrow's row_group_size=1_000_000)",
        );
      }
      const data = new Map<string, { start: number; values: ArrayLike<unknown> }[]>();
      try {
        await parquetRead({
          file,
          metadata,
          rowStart: groupStart,
          rowEnd: groupStart + rows,
          columns: [...wanted],
          compressors,
          parsers: PARSERS as never,
          onChunk: (c) => {
            if (!data.has(c.columnName)) data.set(c.columnName, []);
            data.get(c.columnName)!.push({ start: c.rowStart, values: c.columnData });
          },
        });
      } catch (err) {
        if ((err as { code?: string }).code !== undefined) throw err;
        throw new SourceError(`cannot read row group ${g + 1} of ${metadata.row_groups.length}: ${message(err)}`);
      }
      const cursors = used.map((u) => ({ ...u, parts: (data.get(names[u.index]!) ?? []).sort((a, b) => a.start - b.start), at: 0 }));
      for (let r = groupStart; r < groupStart + rows; r++) {
        for (const c of cursors) {
          let part = c.parts[c.at];
          while (part && r >= part.start + part.values.length) part = c.parts[++c.at];
          const value = part && r >= part.start ? part.values[r - part.start] : undefined;
          record[c.index] = asText(value, c.kind, offsetMin);
        }
        sink(record, r + 1);
      }
      groupStart += rows;
      bytes += chunks.reduce((n, c) => n + Number(c.meta_data?.total_compressed_size ?? 0n), 0);
      progress?.(Math.min(bytes, file.byteLength), file.byteLength);
    }
    progress?.(file.byteLength, file.byteLength);
  } finally {
    await close();
  }
}
