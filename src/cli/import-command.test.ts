/**
 * `graph-stats import` end to end (issue #12 item 15): the real CLI on a real database file, run in
 * this process (test/support/cli-in-process.ts) except where its process is under test: whether its
 * stderr is a terminal decides the progress line.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";
import { command, runCli as runCliProcess } from "../../test/support/http/process.ts";
import { DOUBLE, timestamp, writeParquet } from "../../test/support/parquet-files.ts";

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), "gs-import-cli-"));
  return { dir, db: join(dir, "db.sqlite") };
};
const MINUTES =
  "timestamp,open,high,low,close,volume\n" +
  Array.from({ length: 20 }, (_, i) => `2025-03-03T10:${String(i).padStart(2, "0")}:00+05:30,10,11,9,10,1`).join("\n") +
  "\n";
const read = (db: string, sql: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d.query(sql).all();
  } finally {
    d.close();
  }
};

describe("import", () => {
  test("1-minute bars without --interval 1m are refused naming the flag; with it they import", async () => {
    const { dir, db } = setup();
    const file = join(dir, "MIN.csv");
    writeFileSync(file, MINUTES);
    const refused = await runCli(["import", "--db", db, "--no-sample", "--universe", "u", file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}:3: bar spacing contradicts --interval 1d`);
    expect(refused.stderr).toContain("--interval 1m");
    expect(read(db, "SELECT count(*) AS n FROM bars")).toEqual([{ n: 0 }]);
    const ok = await runCli(["import", "--db", db, "--universe", "u", "--interval", "1m", file]);
    expect(ok.code).toBe(0);
    expect(read(db, "SELECT interval, count(*) AS n FROM bars GROUP BY interval")).toEqual([{ interval: "1m", n: 20 }]);
  }, 30_000);

  test("a Yahoo-style file with --price adj_close, and --map for other names; re-importing leaves the data version", async () => {
    const { dir, db } = setup();
    const yahoo = join(dir, "YH.csv");
    writeFileSync(
      yahoo,
      "Date,Open,High,Low,Close,Adj Close,Volume\n2025-03-03,100,110,90,105,52.5,1000\n2025-03-04,105,112,100,110,55,2000\n",
    );
    const other = join(dir, "OT.csv");
    writeFileSync(other, "When,Open,High,Low,Last,Volume\n2025-03-03,1,2,0.5,1.5,10\n");
    const r = await runCli(["import", "--db", db, "--no-sample", "--universe", "u", "--price", "adj_close", yahoo]);
    expect(r.code).toBe(0);
    const m = await runCli(["import", "--db", db, "--universe", "u", "--map", "timestamp=When,close=Last", other]);
    expect(m.code).toBe(0);
    expect(read(db, "SELECT symbol, close FROM bars ORDER BY symbol, ts")).toEqual([
      { symbol: "OT", close: 1.5 },
      { symbol: "YH", close: 52.5 },
      { symbol: "YH", close: 55 },
    ]);
    const version = read(db, "SELECT value FROM settings WHERE key = 'data_version'");
    expect((await runCli(["import", "--db", db, "--universe", "u", "--price", "adj_close", yahoo])).code).toBe(0);
    expect(read(db, "SELECT value FROM settings WHERE key = 'data_version'")).toEqual(version);
  }, 30_000);

  test("a bad --price or --map is a usage error (exit 2)", async () => {
    const { dir, db } = setup();
    expect((await runCli(["import", "--db", db, "--universe", "u", "--price", "mid", join(dir, "x.csv")])).code).toBe(2);
    const bad = await runCli(["import", "--db", db, "--universe", "u", "--map", "price=Close", join(dir, "x.csv")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--map: expected field=Column");
  }, 30_000);

  test("progress goes to stderr on a terminal only", async () => {
    const { dir, db } = setup();
    const file = join(dir, "MIN.csv");
    writeFileSync(file, MINUTES);
    const piped = await runCliProcess(["import", "--db", db, "--no-sample", "--universe", "u", "--interval", "1m", file]);
    expect(piped.stderr).toBe("");
    // script(1) gives the command a pseudo-terminal; its output is what the terminal showed.
    const line = [...command(), "import", "--db", db, "--universe", "u", "--interval", "1m", file].map((a) => `'${a}'`).join(" ");
    const tty = Bun.spawnSync(["script", "-qec", line, "/dev/null"], { stdout: "pipe", stderr: "pipe" });
    expect(tty.exitCode).toBe(0);
    expect(tty.stdout.toString()).toContain(`${file}: 100% (20 rows read)`);
  }, 30_000);

  test("a close-only .csv.gz and a close-only Parquet file import; a truncated gzip is refused, exit 1", async () => {
    const { dir, db } = setup();
    const days = ["2025-03-03", "2025-03-04", "2025-03-05"];
    const gz = join(dir, "ADJ.csv.gz");
    writeFileSync(gz, gzipSync(`Date,Close\n${days.map((d, i) => `${d},${50 + i}`).join("\n")}\n`));
    const pq = join(dir, "PQ.parquet");
    const micros = days.map((d) => BigInt(Date.parse(`${d}T00:00:00+05:30`)) * 1000n);
    writeParquet(pq, [
      { name: "timestamp", type: timestamp("MICROS"), data: micros },
      { name: "close", type: DOUBLE, data: [7, 7.5, 8] },
    ]);
    const r = await runCli(["import", "--db", db, "--no-sample", "--universe", "u", "--default-offset", "+05:30", gz, pq]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toContain("2 file(s) imported, 0 rejected; 6 rows (6 new");
    expect(read(db, "SELECT symbol, ts, offset_min AS o, open, high, low, close, volume FROM bars ORDER BY symbol, ts")).toEqual([
      ...days.map((d, i) => ({
        symbol: "ADJ",
        ts: Date.parse(`${d}T00:00:00+05:30`),
        o: 330,
        open: 50 + i,
        high: 50 + i,
        low: 50 + i,
        close: 50 + i,
        volume: 0,
      })),
      ...days.map((d, i) => ({
        symbol: "PQ",
        ts: Date.parse(`${d}T00:00:00+05:30`),
        o: 330,
        open: 7 + i / 2,
        high: 7 + i / 2,
        low: 7 + i / 2,
        close: 7 + i / 2,
        volume: 0,
      })),
    ]);
    const cut = join(dir, "CUT.csv.gz");
    const whole = gzipSync(`timestamp,close\n${days.map((d) => `${d},1`).join("\n")}\n`);
    writeFileSync(cut, whole.subarray(0, whole.length - 4));
    const refused = await runCli(["import", "--db", db, "--universe", "u", cut]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${cut}: truncated gzip file`);
    expect(read(db, "SELECT count(*) AS n FROM bars WHERE symbol = 'CUT'")).toEqual([{ n: 0 }]);
  }, 30_000);
});
