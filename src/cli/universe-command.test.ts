/**
 * `universe list|show|remove|delete` and `import-metadata` end to end: the real CLI in this process
 * (test/support/cli-in-process.ts) on a real database file, each change checked in the file and in
 * the data version, the refusals with their messages.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";

const DAYS = ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"];
const bars = (dates: string[]) =>
  `timestamp,open,high,low,close,volume\n${dates.map((d, i) => `${d},${10 + i},${10 + i},${10 + i},${10 + i},1`).join("\n")}\n`;

/** A database with universes `a` (AAA, BBB, CCC; BBB missing a day) and `b` (CCC, DDD). */
async function setup() {
  const dir = mkdtempSync(join(tmpdir(), "gs-universe-cli-"));
  const db = join(dir, "db.sqlite");
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const a = [file("AAA.csv", bars(DAYS)), file("BBB.csv", bars([DAYS[0]!, DAYS[2]!, DAYS[3]!])), file("CCC.csv", bars(DAYS))];
  expect((await runCli(["import", "--db", db, "--no-sample", "--universe", "a", ...a])).code).toBe(0);
  const b = [a[2]!, file("DDD.csv", bars(DAYS.slice(1)))];
  expect((await runCli(["import", "--db", db, "--universe", "b", ...b])).code).toBe(0);
  const read = (sql: string) => {
    const d = new Database(db, { readonly: true });
    try {
      return d.query(sql).all();
    } finally {
      d.close();
    }
  };
  const version = () => Number((read("SELECT value FROM settings WHERE key = 'data_version'")[0] as { value: string }).value);
  return { dir, db, file, read, version };
}

describe("universe list and show", () => {
  test("list: every universe with its symbols, intervals and bars; --json is the API's shape", async () => {
    const { db, version } = await setup();
    const text = await runCli(["universe", "list", "--db", db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      "a\t3 symbol(s)\t1d\t2024-01-01 … 2024-01-04\timported\nb\t2 symbol(s)\t1d\t2024-01-01 … 2024-01-04\timported\n",
    );
    const json = JSON.parse((await runCli(["universe", "list", "--db", db, "--json"])).stdout);
    expect(json[0]).toEqual({
      name: "a",
      symbols: 3,
      intervals: ["1d"],
      first_bar: "2024-01-01T00:00:00+00:00",
      last_bar: "2024-01-04T00:00:00+00:00",
      data_source: "imported",
      data_version: version(),
    });
  }, 30_000);

  test("show: per symbol first, last, bars and missing; an unknown name exits 1 naming the known ones", async () => {
    const { db } = await setup();
    const shown = await runCli(["universe", "show", "a", "--db", db]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("  BBB: 1d 2024-01-01…2024-01-04 3 bars, 1 missing\n");
    const json = JSON.parse((await runCli(["universe", "show", "b", "--db", db, "--json"])).stdout);
    expect(
      json.symbols.map((s: { symbol: string; coverage: { "1d": { missing: number } } }) => [s.symbol, s.coverage["1d"].missing]),
    ).toEqual([
      ["CCC", 0],
      ["DDD", 0],
    ]);
    const unknown = await runCli(["universe", "show", "zzz", "--db", db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("graph-stats: unknown universe 'zzz'; known universes: a, b\n");
  }, 30_000);
});

describe("universe remove and delete", () => {
  test("remove: members only, bars stay, the data version moves; a non-member is named and exits 1", async () => {
    const { db, read, version } = await setup();
    const before = version();
    const r = await runCli(["universe", "remove", "a", "BBB", "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("universe a: 1 symbol(s) removed (BBB); bars kept\n");
    expect(version()).toBe(before + 1);
    expect(read("SELECT symbol FROM universe_members WHERE universe = 'a' ORDER BY position")).toEqual([
      { symbol: "AAA" },
      { symbol: "CCC" },
    ]);
    expect(read("SELECT count(*) AS n FROM bars WHERE symbol = 'BBB'")).toEqual([{ n: 3 }]);
    const again = await runCli(["universe", "remove", "a", "BBB", "--db", db, "--json"]);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ universe: "a", removed: [], not_members: ["BBB"] });
    expect(version()).toBe(before + 1);
  }, 30_000);

  test("delete keeps bars; --purge deletes only the bars no other universe lists", async () => {
    const { db, read, version } = await setup();
    const before = version();
    const purged = await runCli(["universe", "delete", "a", "--purge", "--db", db, "--json"]);
    expect(purged.code).toBe(0);
    expect(JSON.parse(purged.stdout)).toEqual({ universe: "a", members: 3, purged: ["AAA", "BBB"], bars_deleted: 7 });
    expect(version()).toBe(before + 1);
    expect(read("SELECT DISTINCT symbol FROM bars ORDER BY symbol")).toEqual([{ symbol: "CCC" }, { symbol: "DDD" }]);
    expect(read("SELECT name FROM universes")).toEqual([{ name: "b" }]);
    const kept = await runCli(["universe", "delete", "b", "--db", db]);
    expect(kept.stdout).toBe("universe b deleted (2 member(s)); bars kept (--purge deletes those no other universe lists)\n");
    expect(read("SELECT count(*) AS n FROM bars")).toEqual([{ n: 7 }]);
  }, 30_000);

  test("the configured default universe is not deleted, and usage errors exit 2", async () => {
    const { db, read } = await setup();
    const refused = await runCli(["universe", "delete", "a", "--db", db], { GRAPH_STATS_DEFAULT_UNIVERSE: "a" });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("universe 'a' is the configured default universe (--default-universe, GRAPH_STATS_DEFAULT_UNIVERSE)");
    expect(read("SELECT name FROM universes ORDER BY name")).toEqual([{ name: "a" }, { name: "b" }]);
    expect((await runCli(["universe", "delete", "--db", db])).code).toBe(2);
    expect((await runCli(["universe", "remove", "a", "--db", db])).stderr).toContain("universe remove needs NAME and at least one SYMBOL");
    expect((await runCli(["universe", "show", "a", "--purge", "--db", db])).code).toBe(2);
    expect((await runCli(["universe", "rename", "--db", db])).stderr).toContain(
      "universe needs a subcommand: list, show, remove or delete (got 'rename')",
    );
  }, 30_000);
});

describe("import-metadata", () => {
  test("names and sectors land per symbol (extra columns ignored), the data version moves once, show carries them", async () => {
    const { db, file, version } = await setup();
    const before = version();
    const csv = file(
      "meta.csv",
      'Sector,Symbol,Name,Industry,ISIN\nBanks,AAA,"Alpha, Ltd",Private banks,X1\nIT,BBB,Beta,,X2\n,ZZZ,Unlisted,,X3\n',
    );
    const r = await runCli(["import-metadata", csv, "--db", db]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${csv}: 3 symbol(s), 3 changed, 2 sector(s)\n`);
    expect(version()).toBe(before + 1);
    expect((await runCli(["import-metadata", csv, "--db", db, "--json"])).stdout).toContain('"changed": 0');
    expect(version()).toBe(before + 1);
    const shown = JSON.parse((await runCli(["universe", "show", "a", "--db", db, "--json"])).stdout);
    expect(shown.symbols.slice(0, 2).map((s: Record<string, unknown>) => [s.symbol, s.name, s.sector, s.industry])).toEqual([
      ["AAA", "Alpha, Ltd", "Banks", "Private banks"],
      ["BBB", "Beta", "IT", null],
    ]);
  }, 30_000);

  test("a hostile file is refused whole with file:line: reason, nothing written", async () => {
    const { db, file, read, version } = await setup();
    const before = version();
    const bad = file(
      "bad.csv",
      [
        "symbol,name,sector,industry",
        "AAA,Alpha,Banks,Private",
        "BAD SYMBOL,x,y,z",
        "AAA,Again,Banks,Private",
        "CCC,Gamma,Energy",
        `DDD,${"n".repeat(201)},IT,Software`,
        "EEE,\u001b[2JClear,IT,Software",
      ].join("\n"),
    );
    const r = await runCli(["import-metadata", bad, "--db", db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:3: symbol 'BAD SYMBOL' is not 1-32 of A-Z a-z 0-9 & . _ -`);
    expect(r.stderr).toContain(`${bad}:4: symbol AAA again (first on line 2)`);
    expect(r.stderr).toContain(`${bad}:5: 3 fields, but the header has 4`);
    expect(r.stderr).toContain(`${bad}:6: name is over 200 characters`);
    expect(r.stderr).toContain(`${bad}:7: name '\\u001b[2JClear' holds a control character`);
    expect(r.stderr).toContain("was not imported: nothing written");
    expect(read("SELECT count(*) AS n FROM symbol_metadata")).toEqual([{ n: 0 }]);
    expect(version()).toBe(before);
    const header = await runCli(["import-metadata", file("h.csv", "ticker,sector\nAAA,Banks\n"), "--db", db]);
    expect(header.code).toBe(1);
    expect(header.stderr).toContain("h.csv:1: header lacks symbol, name, industry; expected symbol,name,sector,industry");
    const missing = await runCli(["import-metadata", join(db, "..", "nope.csv"), "--db", db]);
    expect(missing.stderr).toContain("nope.csv: cannot read: no such file");
  }, 30_000);
});
