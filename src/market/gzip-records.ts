/**
 * Gzipped CSV (vendors' daily flat files), streamed: the file is read in 1 MiB chunks through
 * node:zlib's gunzip into the CSV reader, so memory stays flat whatever the file's size, and
 * concatenated gzip members read as one file as gunzip(1) does. A truncated or corrupt stream is
 * refused as a whole (`file: reason`); stageFile writes nothing of a file that did not read to its end.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { CsvRecordReader, type RecordSink } from "./csv-records.ts";
import { SourceError } from "./bar-source.ts";

const CHUNK_BYTES = 1 << 20;

/** zlib's error codes: the data, not the disk, is bad. */
const ZLIB_CODES = new Set(["Z_BUF_ERROR", "Z_DATA_ERROR", "Z_NEED_DICT", "Z_STREAM_ERROR", "Z_MEM_ERROR"]);

/**
 * Reads the gzipped CSV at `path`; `progress` gets the compressed bytes read so far and the file's
 * size. Rejects with the fs error when the file cannot be read, SourceError when the data is bad.
 */
export async function readGzipCsvFile(path: string, sink: RecordSink, progress?: (bytes: number, total: number) => void): Promise<void> {
  const total = (await stat(path)).size;
  const input = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  const decoder = new TextDecoder("utf-8");
  const reader = new CsvRecordReader(sink);
  try {
    await pipeline(input, createGunzip({ chunkSize: 1 << 16 }), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        reader.push(decoder.decode(chunk, { stream: true }));
        progress?.(input.bytesRead, total);
      }
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === undefined || !ZLIB_CODES.has(code)) throw err;
    throw new SourceError(
      code === "Z_BUF_ERROR"
        ? "truncated gzip file: the compressed data ends early (unexpected end of file); nothing was imported from it"
        : `corrupt gzip file: ${(err as Error).message}; nothing was imported from it`,
    );
  }
  reader.push(decoder.decode());
  reader.end();
}
