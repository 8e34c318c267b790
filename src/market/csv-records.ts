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

/**
 * The longest physical line and the longest record (a quoted field may span lines) accepted, in
 * characters: far above any OHLCV row, and a bound on what a hostile file can make the reader hold.
 */
export const MAX_LINE_CHARS = 64 * 1024;
export const MAX_RECORD_CHARS = 64 * 1024;

/** A record whose quoted field spans lines, parsed up to the end of the lines seen so far. */
interface OpenRecord {
  line: number;
  fields: string[];
  /** The quoted field being read: its text so far. */
  value: string;
  chars: number;
}

export class CsvRecordReader {
  /** The current physical line's text before the chunk that ends it (pieces, and their length). */
  private pending: string[] = [];
  private pendingChars = 0;
  private lineNo = 0;
  private first = true;
  private open: OpenRecord | null = null;

  constructor(private readonly sink: RecordSink) {}

  /** Feeds the next piece of text (any split, even inside a field). Each character is looked at once. */
  push(chunk: string): void {
    let text = chunk;
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    let start = 0;
    for (let nl = text.indexOf("\n", start); nl >= 0; nl = text.indexOf("\n", start)) {
      const tail = text.slice(start, nl);
      this.checkLength(tail.length);
      const line = this.pending.length > 0 ? this.pending.join("") + tail : tail;
      this.pending = [];
      this.pendingChars = 0;
      this.line(line);
      start = nl + 1;
    }
    if (start < text.length) {
      this.checkLength(text.length - start);
      this.pending.push(text.slice(start));
      this.pendingChars += text.length - start;
    }
  }

  /** Ends the input; throws when a quoted field was never closed. */
  end(): void {
    if (this.pendingChars > 0) this.line(this.pending.join(""));
    this.pending = [];
    this.pendingChars = 0;
    if (this.open) throw new CsvSyntaxError(this.open.line, "malformed CSV: a quoted field is never closed");
  }

  private checkLength(more: number): void {
    if (this.pendingChars + more > MAX_LINE_CHARS) {
      throw new CsvSyntaxError(
        this.lineNo + 1,
        `malformed CSV: a line longer than ${MAX_LINE_CHARS} characters (a file without line breaks, or not a CSV file?)`,
      );
    }
  }

  private line(raw: string): void {
    this.lineNo++;
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const open = this.open;
    if (open) {
      open.chars += text.length + 1;
      if (open.chars > MAX_RECORD_CHARS) {
        throw new CsvSyntaxError(
          open.line,
          `malformed CSV: a quoted field is still open after ${MAX_RECORD_CHARS} characters (a stray quote?)`,
        );
      }
      open.value += "\n";
      if (parseRecord(open, text, 0, true)) {
        this.open = null;
        this.sink(open.fields, open.line);
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
    const rec: OpenRecord = { line: this.lineNo, fields: [], value: "", chars: text.length };
    if (parseRecord(rec, text, 0, false)) this.sink(rec.fields, rec.line);
    else this.open = rec;
  }
}

/**
 * Parses `text` from `i` into rec; true when the record ends on this line, false when a quoted
 * field is still open at its end (rec.value holds its text so far). `inQuotes`: the line starts
 * inside rec's open quoted field. Resumes where the last line stopped, so a record spanning many
 * lines is read in linear time (re-splitting it from its start at every line was quadratic).
 */
function parseRecord(rec: OpenRecord, text: string, from: number, inQuotes: boolean): boolean {
  let i = from;
  let quoted = inQuotes;
  for (;;) {
    if (!quoted) {
      while (text[i] === " " || text[i] === "\t") i++;
      if (text[i] === '"') {
        quoted = true;
        rec.value = "";
        i++;
        continue;
      }
      const comma = text.indexOf(",", i);
      const value = (comma < 0 ? text.slice(i) : text.slice(i, comma)).trim();
      if (value.includes('"')) throw new CsvSyntaxError(rec.line, "malformed CSV: a quote inside an unquoted field");
      rec.fields.push(value);
      if (comma < 0) return true;
      i = comma + 1;
      continue;
    }
    const q = text.indexOf('"', i);
    if (q < 0) {
      rec.value += text.slice(i);
      return false;
    }
    rec.value += text.slice(i, q);
    if (text[q + 1] === '"') {
      rec.value += '"';
      i = q + 2;
      continue;
    }
    quoted = false;
    let j = q + 1;
    while (text[j] === " " || text[j] === "\t") j++;
    if (j < text.length && text[j] !== ",") throw new CsvSyntaxError(rec.line, "malformed CSV: text after a closing quote");
    rec.fields.push(rec.value);
    rec.value = "";
    if (j >= text.length) return true;
    i = j + 1;
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
