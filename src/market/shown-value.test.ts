import { expect, test } from "bun:test";
import { importCsvSources } from "./import-rules.ts";
import { shownColumns, shownValue } from "./shown-value.ts";
import { tempDb } from "../../test/support/market-db.ts";

test("values are quoted, cut at 40 characters with their length, and terminal controls escaped", () => {
  expect(shownValue("2024-13-01")).toBe("'2024-13-01'");
  expect(shownValue("x".repeat(1_000_000))).toBe(`'${"x".repeat(40)}…' (1000000 characters)`);
  // Screen clear, a carriage return over the line, a right-to-left override.
  expect(shownValue("\u001b[2J\rAll rows imported\u202e")).toBe("'\\u001b[2J\\u000dAll rows imported\\u202e'");
  expect(shownColumns(["Date", "Cl\u001bose"])).toBe("Date,Cl\\u001bose");
});

test("a hostile file's rejection prints no raw control character and no megabyte field; repeated reasons are said once", () => {
  const t = tempDb();
  try {
    const rows = Array.from({ length: 30 }, (_, i) => `2024-01-${String(i + 1).padStart(2, "0")}T09:15:00,1,2,1,2,5`);
    const hostile = `${"9".repeat(10_000)}\u001b[2J`;
    const s = importCsvSources(
      t,
      [
        { file: "NOOFF.csv", text: `timestamp,open,high,low,close,volume\n${rows.join("\n")}\n` },
        { file: "EVIL.csv", text: `timestamp,open,high,low,close,volume\n2024-01-02,${hostile},2,1,2,5\n` },
      ],
      { universe: "u" },
    );
    expect(s.errors[0]).toBe(
      "NOOFF.csv:2: a date-time without a UTC offset: add one (e.g. 2024-01-02T09:15:00+05:30), or import with --default-offset " +
        "(e.g. --default-offset +05:30) to read such times as local time at that offset (and 29 more rows like it)",
    );
    expect(s.errors).toHaveLength(2);
    expect(s.errors[1]).toBe(`EVIL.csv:2: bad number in 'open': '${"9".repeat(40)}…' (10004 characters)`);
    for (const e of s.errors) expect(e).not.toMatch(/[\u0000-\u001f]/);
  } finally {
    t.cleanup();
  }
});
