import { describe, expect, test } from "bun:test";
import { CsvRecordReader, CsvSyntaxError, readCsvText } from "./csv-records.ts";

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
