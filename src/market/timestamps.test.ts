import { describe, expect, test } from "bun:test";
import { formatLocal, formatOffset, NO_OFFSET, parseTimestamp } from "./timestamps.ts";

describe("parseTimestamp", () => {
  const cases: [string, string, number, number][] = [
    ["space separator with +05:30", "2020-10-01 00:00:00+05:30", Date.UTC(2020, 8, 30, 18, 30), 330],
    ["T separator with +05:30", "2020-10-01T00:00:00+05:30", Date.UTC(2020, 8, 30, 18, 30), 330],
    ["Z", "2020-10-01T09:15:00Z", Date.UTC(2020, 9, 1, 9, 15), 0],
    ["negative offset without colon", "2020-10-01T09:30:00-0400", Date.UTC(2020, 9, 1, 13, 30), -240],
    ["no seconds", "2020-10-01T09:15+05:30", Date.UTC(2020, 9, 1, 3, 45), 330],
    ["fractional seconds", "2020-10-01T00:00:01.250Z", Date.UTC(2020, 9, 1, 0, 0, 1, 250), 0],
    ["plain date is UTC midnight by default", "2020-10-01", Date.UTC(2020, 9, 1), 0],
  ];
  for (const [name, text, ts, off] of cases) {
    test(name, () => expect(parseTimestamp(text)).toEqual({ ts, offsetMin: off }));
  }

  test("a date-time without an offset is refused unless a default offset is given", () => {
    expect(parseTimestamp("2024-01-01T09:15:00")).toBe(NO_OFFSET);
    expect(parseTimestamp("2024-01-01 09:15:00", 330)).toEqual({ ts: Date.UTC(2024, 0, 1, 3, 45), offsetMin: 330 });
  });

  test("plain date takes the default offset", () => {
    expect(parseTimestamp("2020-10-01", 330)).toEqual({ ts: Date.UTC(2020, 8, 30, 18, 30), offsetMin: 330 });
  });

  test("an explicit offset beats the default", () => {
    expect(parseTimestamp("2020-10-01T00:00:00Z", 330)).toEqual({ ts: Date.UTC(2020, 9, 1), offsetMin: 0 });
  });

  for (const bad of ["2020-13-01", "2021-02-29", "2020-10-01T24:00:00Z", "01/10/2020", "2020-10-01T00:00:00+25:00", "", "yesterday"]) {
    test(`rejects '${bad}' with a reason`, () => {
      const r = parseTimestamp(bad);
      expect(typeof r).toBe("string");
      expect(r as string).toContain(`'${bad}'`);
    });
  }
});

describe("formatLocal", () => {
  test("prints exchange-local time with offset, seconds and no millis", () => {
    expect(formatLocal(Date.UTC(2020, 8, 30, 18, 30), 330)).toBe("2020-10-01T00:00:00+05:30");
    expect(formatLocal(Date.UTC(2020, 9, 1, 13, 30), -240)).toBe("2020-10-01T09:30:00-04:00");
    expect(formatOffset(0)).toBe("+00:00");
  });

  test("round-trips what parseTimestamp reads", () => {
    for (const s of ["2025-09-30T15:29:00+05:30", "2021-07-23T00:00:00+05:30", "1999-12-31T23:59:59-09:30"]) {
      const p = parseTimestamp(s) as { ts: number; offsetMin: number };
      expect(formatLocal(p.ts, p.offsetMin)).toBe(s);
    }
  });
});
