/**
 * The series the capacity alerts read (deploy/prometheus/rules.yml), from a real server's /metrics:
 * on SQLite the memory bound and the database file's filesystem, on PostgreSQL the server's
 * connections against its max_connections, each compared with the system's own answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import { startHarness, type Harness } from "../../../test/support/http/harness.ts";
import { startPostgres, type TestDatabase } from "../../../test/support/postgres.ts";

/** In-process, as Prometheus on loopback would ask (the socket adds nothing to what is exported). */
const AS_PROMETHEUS = { override: { clientAddress: () => "127.0.0.1" } };
const scrape = async (h: Harness) => (await h.handle("/metrics", { headers: { Host: "127.0.0.1" } })).text();

/** The value of an unlabelled series in a scrape (undefined when absent). */
function sample(text: string, name: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe("SQLite", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ admittedMb: "256" }, AS_PROMETHEUS);
  });
  afterAll(() => h.stop());

  test("the memory bound, the filesystem's size and free space as statfs gives them, RSS and event-loop lag beside them", async () => {
    const text = await scrape(h);
    expect(sample(text, "graphstats_admitted_limit_bytes")).toBe(256 * 2 ** 20);
    const fs = statfsSync(dirname(h.config.db));
    expect(sample(text, "graphstats_db_filesystem_size_bytes")).toBe(fs.blocks * fs.bsize);
    // Other processes write to the same volume meanwhile: the free space agrees within 1% of it.
    const avail = sample(text, "graphstats_db_filesystem_avail_bytes")!;
    expect(Math.abs(avail - fs.bavail * fs.bsize)).toBeLessThan(fs.blocks * fs.bsize * 0.01);
    expect(sample(text, "graphstats_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "graphstats_nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    // No connection limit on SQLite, and a lone process has no supervisor restarting it.
    expect(sample(text, "graphstats_db_max_connections")).toBeUndefined();
    expect(sample(text, "graphstats_worker_restarts_total")).toBeUndefined();
  });
});

describe("PostgreSQL", () => {
  let pgdb: TestDatabase;
  let h: Harness;
  let other: SQL;
  beforeAll(async () => {
    pgdb = await startPostgres({ sample: true });
    h = await startHarness({ databaseUrl: pgdb.url, sample: true }, AS_PROMETHEUS);
    other = new SQL(pgdb.url, { max: 3 });
  });
  afterAll(async () => {
    await h?.stop();
    await other?.close();
    await pgdb?.stop();
  });

  test("max_connections as the server says it, and the connections open counting other clients'", async () => {
    const [{ max }] = await other`SELECT current_setting('max_connections')::int AS max`;
    const held = await Promise.all([other.reserve(), other.reserve(), other.reserve()]);
    try {
      const text = await scrape(h);
      expect(sample(text, "graphstats_db_max_connections")).toBe(max);
      // At least the three held here and the server's own; other suites may share this PostgreSQL.
      const open = sample(text, "graphstats_db_server_connections")!;
      expect(open).toBeGreaterThanOrEqual(4);
      expect(open).toBeLessThanOrEqual(max);
      expect(sample(text, "graphstats_db_filesystem_avail_bytes")).toBeUndefined();
    } finally {
      for (const c of held) c.release();
    }
  });
});
