/**
 * A streaming CSV reader (RFC 4180: quoted fields, "" escapes, newlines inside quotes, CRLF), fed
 * chunk by chunk, so a large file is never held whole: the csv-parse/sync reader this replaces
 * kept every record and its position object, and an 85 MB file took 2 GB. Unquoted fields are
 * trimmed; blank lines are skipped but counted in line numbers.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** A malformed record; `line` is where it starts. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Receives each record with the line it starts on. */
export type RecordSink = (fields: string[], line: number) => void;

export class CsvRecordReader {
  private pending = "";
  private lineNo = 0;
  private first = true;
  /** A record whose quoted field spans lines: the text so far and the line it started on. */
  private open: { text: string; line: number } | null = null;

  constructor(private readonly sink: RecordSink) {}

  /** Feeds the next piece of text (any split, even inside a field). */
  push(chunk: string): void {
    let text = this.pending + chunk;
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    let start = 0;
    for (let nl = text.indexOf("\n", start); nl >= 0; nl = text.indexOf("\n", start)) {
      this.line(text.slice(start, nl));
      start = nl + 1;
    }
    this.pending = text.slice(start);
  }

  /** Ends the input; throws when a quoted field was never closed. */
  end(): void {
    if (this.pending.length > 0) this.line(this.pending);
    this.pending = "";
    if (this.open) throw new CsvSyntaxError(this.open.line, "malformed CSV: a quoted field is never closed");
  }

  private line(raw: string): void {
    this.lineNo++;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (this.open) {
      this.open.text += `\n${text}`;
      const fields = splitRecord(this.open.text, this.open.line);
      if (fields) {
        const line = this.open.line;
        this.open = null;
        this.sink(fields, line);
      }
      return;
    }
    if (text.trim() === "") return;
    if (!text.includes('"')) {
      this.sink(
        text.split(",").map((f) => f.trim()),
        this.lineNo,
      );
      return;
    }
    const fields = splitRecord(text, this.lineNo);
    if (fields) this.sink(fields, this.lineNo);
    else this.open = { text, line: this.lineNo };
  }
}

/** Splits a record that contains quotes; null when a quoted field is still open at its end. */
function splitRecord(text: string, line: number): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === '"') {
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return null;
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      while (text[j] === " " || text[j] === "\t") j++;
      if (j < text.length && text[j] !== ",") throw new CsvSyntaxError(line, "malformed CSV: text after a closing quote");
      fields.push(value);
      if (j >= text.length) return fields;
      i = j + 1;
    } else {
      const comma = text.indexOf(",", i);
      const value = (comma < 0 ? text.slice(i) : text.slice(i, comma)).trim();
      if (value.includes('"')) throw new CsvSyntaxError(line, "malformed CSV: a quote inside an unquoted field");
      fields.push(value);
      if (comma < 0) return fields;
      i = comma + 1;
    }
  }
}

/** Reads `text` whole (tests, in-memory sources). */
export function readCsvText(text: string, sink: RecordSink): void {
  const reader = new CsvRecordReader(sink);
  reader.push(text);
  reader.end();
}

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file in 1 MiB chunks; `progress` gets the bytes read so far and the file's size after
 * each chunk. Throws the fs error when the file cannot be opened or read.
 */
export function readCsvFile(path: string, sink: RecordSink, progress?: (bytes: number, total: number) => void): void {
  const fd = openSync(path, "r");
  try {
    const total = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new TextDecoder("utf-8");
    const reader = new CsvRecordReader(sink);
    let bytes = 0;
    for (let n = readSync(fd, buf, 0, CHUNK_BYTES, null); n > 0; n = readSync(fd, buf, 0, CHUNK_BYTES, null)) {
      bytes += n;
      reader.push(decoder.decode(buf.subarray(0, n), { stream: true }));
      progress?.(bytes, total);
    }
    reader.push(decoder.decode());
    reader.end();
  } finally {
    closeSync(fd);
  }
}
