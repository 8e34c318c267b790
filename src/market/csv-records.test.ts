import { describe, expect, test } from "bun:test";
import { CsvRecordReader, CsvSyntaxError, MAX_LINE_CHARS, MAX_RECORD_CHARS, readCsvText } from "./csv-records.ts";

const all = (text: string) => {
  const out: [string[], number][] = [];
  readCsvText(text, (f, line) => out.push([f, line]));
  return out;
};

describe("the streaming CSV reader", () => {
  test("plain fields are trimmed; blank lines are skipped but counted; CRLF and a BOM are handled", () => {
    expect(all("\uFEFFa, b ,c\r\n\r\n1,2,3\r\n")).toEqual([
      [["a", "b", "c"], 1],
      [["1", "2", "3"], 3],
    ]);
  });

  test("quoted fields keep commas, doubled quotes and newlines; the record is numbered by its first line", () => {
    expect(all('s,"x, ""y""",z\n"multi\nline",2,3\nlast,1,2')).toEqual([
      [["s", 'x, "y"', "z"], 1],
      [["multi\nline", "2", "3"], 2],
      [["last", "1", "2"], 4],
    ]);
  });

  test("chunks may split anywhere, even inside a quoted field", () => {
    const text = 'h1,h2\n"a,\nb",1\nc,2\n';
    const whole = all(text);
    for (let cut = 1; cut < text.length; cut++) {
      const out: [string[], number][] = [];
      const r = new CsvRecordReader((f, line) => out.push([f, line]));
      r.push(text.slice(0, cut));
      r.push(text.slice(cut));
      r.end();
      expect(out).toEqual(whole);
    }
  });

  const malformed: [string, string, number][] = [
    ["an unclosed quote", 'a,b\n"open,1\n2,3\n', 2],
    ["text after a closing quote", 'a,b\n"x"y,1\n', 2],
    ["a quote inside an unquoted field", 'a,b\nx"y,1\n', 2],
  ];
  for (const [name, text, line] of malformed) {
    test(`${name} is a syntax error at its line`, () => {
      let err: unknown;
      try {
        all(text);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CsvSyntaxError);
      expect((err as CsvSyntaxError).line).toBe(line);
    });
  }
});

describe("hostile files: linear time, bounded memory", () => {
  /** The error the reader throws for `chunks`, fed one by one. */
  const failure = (chunks: Iterable<string>): CsvSyntaxError => {
    const reader = new CsvRecordReader(() => {});
    try {
      for (const c of chunks) reader.push(c);
      reader.end();
    } catch (err) {
      return err as CsvSyntaxError;
    }
    throw new Error("no error");
  };

  test("a stray quote before 4 MB of valid rows is refused at its line once the record passes 64 KiB (was quadratic: 68 s for 3.6 MB)", () => {
    const rows = "2024-01-02,1,2,1,2,5\n".repeat(200_000);
    const err = failure([`timestamp,open,high,low,close,volume\n2024-01-01,"1,2,1,2,5\n`, rows]);
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect(err.line).toBe(2);
    expect(err.message).toBe(`malformed CSV: a quoted field is still open after ${MAX_RECORD_CHARS} characters (a stray quote?)`);
  }, 10_000);

  test("a line without a line break is refused once it passes 64 KiB, however long the file", () => {
    const chunk = "x".repeat(1 << 20);
    let fed = 0;
    const err = failure(
      (function* () {
        for (let i = 0; i < 400; i++) {
          fed++;
          yield chunk;
        }
      })(),
    );
    expect(err.line).toBe(1);
    expect(err.message).toBe(
      `malformed CSV: a line longer than ${MAX_LINE_CHARS} characters (a file without line breaks, or not a CSV file?)`,
    );
    expect(fed).toBe(1); // refused at the first 1 MiB chunk: nothing more was read or held
  }, 10_000);

  test("a long quoted field that does close, fed in small chunks, is read whole", () => {
    const value = `${"a,b\n".repeat(5000)}"q"`;
    const text = `h1,h2\n"${value.replace(/"/g, '""')}",2\nx,y\n`;
    const out: string[][] = [];
    const reader = new CsvRecordReader((f) => out.push(f));
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    reader.end();
    expect(out).toEqual([
      ["h1", "h2"],
      [value, "2"],
      ["x", "y"],
    ]);
  });
});
