/**
 * Writing Parquet files for tests and benchmarks with a real writer (hyparquet-writer), column by
 * column with an explicit schema, so each test says exactly which physical and logical types the
 * importer meets: TIMESTAMP units, DATE, strings, nulls, compression codecs, row group sizes.
 */
import { gzipSync, zstdCompressSync } from "node:zlib";
import type { SchemaElement } from "hyparquet";
import { parquetWriteFile } from "hyparquet-writer";

export interface ParquetColumn {
  name: string;
  /** The column's schema element without its name; OPTIONAL (nullable) unless it says otherwise. */
  type: Omit<SchemaElement, "name">;
  data: unknown[];
}

export const DOUBLE: ParquetColumn["type"] = { type: "DOUBLE" };
export const STRING: ParquetColumn["type"] = { type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } };
export const DATE: ParquetColumn["type"] = { type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" } };
export const timestamp = (unit: "MILLIS" | "MICROS" | "NANOS", isAdjustedToUTC = true): ParquetColumn["type"] => ({
  type: "INT64",
  logical_type: { type: "TIMESTAMP", unit, isAdjustedToUTC },
});

export function writeParquet(
  filename: string,
  columns: readonly ParquetColumn[],
  opts: { rowGroupSize?: number; codec?: "SNAPPY" | "GZIP" | "ZSTD" | "UNCOMPRESSED" } = {},
): void {
  const schema: SchemaElement[] = [
    { name: "root", num_children: columns.length },
    ...columns.map((c) => ({ name: c.name, repetition_type: "OPTIONAL" as const, ...c.type })),
  ];
  parquetWriteFile({
    filename,
    schema: schema as never,
    columnData: columns.map((c) => ({ name: c.name, data: c.data as never })),
    rowGroupSize: opts.rowGroupSize,
    codec: opts.codec ?? "SNAPPY",
    compressors: { GZIP: (b: Uint8Array) => gzipSync(b), ZSTD: (b: Uint8Array) => zstdCompressSync(b) },
  });
}
