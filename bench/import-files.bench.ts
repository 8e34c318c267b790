/**
 * What `graph-stats import` costs on a large file in each format (not a test): one long file of
 * daily bars — the plain CSV about --mb MiB (default 1024), the same bars gzipped, and the same
 * bars as Parquet (DATE, STRING symbol, DOUBLE prices, snappy, 1 Mi-row groups) — each imported
 * by the real CLI in its own process into a fresh SQLite file. Reports rows/s (wall time of the
 * process) and the process's peak RSS, and checks the three stores hold the same bars.
 * Files go to --dir (default the system temp dir) and are deleted afterwards.
 * Run: npx bun bench/import-files.bench.ts [--mb 1024] [--dir /tmp]
 */
import { Database } from "bun:sqlite";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ParquetWriter } from "hyparquet-writer";
import { fileWriter } from "hyparquet-writer";
import { Prng } from "../src/market/prng.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const targetBytes = Number(arg("mb", "1024")) * 2 ** 20;
const dir = mkdtempSync(join(arg("dir", tmpdir()), "gs-import-bench-"));
const root = resolve(import.meta.dir, "..");
const ROW_GROUP = 1 << 20;

/** Weekdays from 1990-01-01 as epoch days. */
const weekdays: number[] = [];
for (let d = Date.UTC(1990, 0, 1) / 86_400_000; weekdays.length < 9000; d++) if (((d % 7) + 7 + 4) % 7 < 5) weekdays.push(d);

const csvPath = join(dir, "bars.csv");
const pqPath = join(dir, "bars.parquet");
const gzPath = join(dir, "bars.csv.gz");

function generate(): number {
  const fd = openSync(csvPath, "w");
  const pq = new ParquetWriter({
    writer: fileWriter(pqPath),
    schema: [
      { name: "root", num_children: 7 },
      { name: "symbol", type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" }, repetition_type: "REQUIRED" },
      { name: "date", type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" }, repetition_type: "REQUIRED" },
      ...["open", "high", "low", "close", "volume"].map((name) => ({
        name,
        type: "DOUBLE" as const,
        repetition_type: "REQUIRED" as const,
      })),
    ] as never,
  });
  const cols = () => ({
    symbol: [] as string[],
    date: [] as number[],
    open: [] as number[],
    high: [] as number[],
    low: [] as number[],
    close: [] as number[],
    volume: [] as number[],
  });
  let batch = cols();
  const flushParquet = () => {
    if (batch.date.length === 0) return;
    pq.write({ columnData: Object.entries(batch).map(([name, data]) => ({ name, data })), rowGroupSize: ROW_GROUP });
    batch = cols();
  };
  let bytes = writeSync(fd, "symbol,date,open,high,low,close,volume\n");
  let rows = 0;
  const rng = new Prng(44);
  const round2 = (x: number) => Number(x.toFixed(2));
  for (let s = 0; bytes < targetBytes; s++) {
    const symbol = `S${String(s).padStart(4, "0")}`;
    let price = 50 + 150 * rng.uniform();
    let text = "";
    for (const day of weekdays) {
      price *= Math.exp(0.02 * (rng.uniform() - 0.5));
      const close = round2(price);
      const open = round2(price * (1 + 0.01 * (rng.uniform() - 0.5)));
      const high = round2(Math.max(open, close) * (1 + 0.01 * rng.uniform()));
      const low = round2(Math.min(open, close) * (1 - 0.01 * rng.uniform()));
      const volume = Math.floor(1e4 + 1e6 * rng.uniform());
      const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
      text += `${symbol},${date},${open},${high},${low},${close},${volume}\n`;
      batch.symbol.push(symbol);
      batch.date.push(day);
      batch.open.push(open);
      batch.high.push(high);
      batch.low.push(low);
      batch.close.push(close);
      batch.volume.push(volume);
      rows++;
      if (batch.date.length === ROW_GROUP) flushParquet();
    }
    bytes += writeSync(fd, text);
  }
  flushParquet();
  pq.finish();
  closeSync(fd);
  const gz = Bun.spawnSync(["sh", "-c", `gzip -6 -c '${csvPath}' > '${gzPath}'`]);
  if (gz.exitCode !== 0) throw new Error(`gzip failed: ${gz.stderr}`);
  return rows;
}

interface Run {
  format: string;
  fileBytes: number;
  seconds: number;
  peakRssMb: number;
  stored: { n: number; closes: number; first: string };
}

async function importOnce(format: string, file: string): Promise<Run> {
  const db = join(dir, `${format}.sqlite`);
  const t0 = performance.now();
  const timeFile = join(dir, "time.txt");
  // GNU time(1) reports the child's own peak RSS (getrusage, kilobytes).
  const cli = [process.execPath, join(root, "src/cli.ts"), "import", "--db", db, "--no-sample", "--universe", "big", file];
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", "-o", timeFile, ...cli], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text(), await proc.exited];
  const seconds = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`import of ${format} failed (${code}): ${err || out}`);
  const peakKb = Number(readFileSync(timeFile, "utf8").trim().split("\n").at(-1));
  const d = new Database(db, { readonly: true });
  const stored = d
    .query("SELECT count(*) AS n, total(close) AS closes, min(symbol || ts || open || high || low || volume) AS first FROM bars")
    .get() as Run["stored"];
  d.close();
  rmSync(db, { force: true });
  for (const suffix of ["-wal", "-shm"]) rmSync(db + suffix, { force: true });
  return { format, fileBytes: statSync(file).size, seconds, peakRssMb: peakKb / 1024, stored };
}

try {
  const g0 = performance.now();
  const rows = generate();
  console.error(`generated ${rows} rows in ${((performance.now() - g0) / 1000).toFixed(0)} s`);
  const runs: Run[] = [];
  for (const [format, file] of [
    ["CSV", csvPath],
    [".csv.gz", gzPath],
    ["Parquet", pqPath],
  ] as const) {
    console.error(`importing ${format}…`);
    runs.push(await importOnce(format, file));
  }
  const same = runs.every((r) => r.stored.n === rows && JSON.stringify(r.stored) === JSON.stringify(runs[0]!.stored));
  console.log("### Importing a large file: CSV, .csv.gz, Parquet\n");
  console.log(
    `Reproduce: \`npx bun bench/import-files.bench.ts --mb ${targetBytes / 2 ** 20}\`. One long file of ${rows.toLocaleString("en")} daily bars ` +
      `(${Math.round(rows / weekdays.length)} symbols × ${weekdays.length} weekdays), each format imported by \`graph-stats import\` in its own ` +
      "process into a fresh SQLite file; rows/s over the process's wall time (start-up, migration, staging, checks and the upsert), " +
      `peak RSS of that process from GNU time(1). The three stores hold the same bars: ${same ? "yes" : "NO"} (count, sum of closes, first row).\n`,
  );
  console.log("| format | file size | rows/s | wall time | peak RSS |\n|---|---:|---:|---:|---:|");
  for (const r of runs) {
    console.log(
      `| ${r.format} | ${(r.fileBytes / 2 ** 20).toFixed(0)} MiB | ${Math.round(rows / r.seconds).toLocaleString("en")} | ${r.seconds.toFixed(1)} s | ${r.peakRssMb.toFixed(0)} MB |`,
    );
  }
  if (!same) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
