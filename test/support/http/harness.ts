/**
 * Test harness: a real server on a real port over a real SQLite file, with an injected clock,
 * and real HS256 tokens signed with the server's secret. By default the database holds the
 * synthetic `sample` universe (the default universe here), so every clone can run these tests;
 * tests about the real NIFTY-50 data pass `niftyDb()` inside a `describeNifty` block.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintToken } from "../../../src/auth/index.ts";
import { TestClock } from "../../../src/clock.ts";
import { loadConfig, type Config } from "../../../src/config.ts";
import { createLogger } from "../../../src/logger.ts";
import { importCsvFiles, loadSample } from "../../../src/market/index.ts";
import { niftyFiles } from "../nifty.ts";
import { startServer, type RunningServer, type StartOptions } from "../../../src/server.ts";
import { openDatabase, type OpenedDb } from "../../../db/sqlite/open.ts";

export const SECRET = "test-secret-0123456789-abcdefghijklmnop";

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), "gs-http-")), "graph-stats.sqlite");
}

/** The flags of a `serve` process on PostgreSQL at `url`, computing on its event loop; `db` must stay unopened. */
export function pgServeArgs(url: string, db = tempDbPath()): string[] {
  return ["--port", "0", "--db", db, "--jwt-secret", SECRET, "--compute-threads", "0", "--database-url", url];
}

let sampleTemplate: string | null = null;

/** A database file holding only the synthetic sample; generated once per run, then copied (0.4 s vs ~20 ms). */
export function sampleDb(path = tempDbPath()): string {
  if (sampleTemplate === null) {
    const template = tempDbPath();
    const opened = openDatabase(template);
    loadSample(opened);
    opened.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)"); // everything in the main file, so a copy is whole
    opened.sqlite.close();
    sampleTemplate = template;
  }
  copyFileSync(sampleTemplate, path);
  return path;
}

/** A database file with the real NIFTY data imported as `nifty50` (no sample); needs the data. */
export function niftyDb(path = tempDbPath()): string {
  const opened = openDatabase(path);
  importCsvFiles(opened, niftyFiles(), { universe: "nifty50", interval: "1d" });
  opened.sqlite.close();
  return path;
}

export interface Harness {
  /** Always on a SQLite file here, so `opened` is there. */
  server: RunningServer & { opened: OpenedDb };
  base: string;
  clock: TestClock;
  config: Config;
  token(user: string, opts?: { ttlSeconds?: number; email?: string }): Promise<string>;
  get(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  /** As `get`, but through the app's handler in-process: for pure HTTP behaviour, where the socket adds nothing. */
  handle(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export async function startHarness(
  overrides: Record<string, unknown> = {},
  options: StartOptions & { dbPath?: string; start?: string } = {},
): Promise<Harness> {
  const clock = new TestClock(Date.parse(options.start ?? "2026-11-22T10:00:00Z"));
  const config = loadConfig(
    {
      port: "0",
      host: "127.0.0.1",
      db: options.dbPath ?? sampleDb(),
      jwtSecret: SECRET,
      defaultUniverse: "sample",
      sample: false,
      ...overrides,
    },
    {},
  );
  const server = (await startServer(config, createLogger("silent"), { clock, ...options })) as RunningServer & { opened: OpenedDb };
  const base = `http://127.0.0.1:${server.port}`;
  return {
    server,
    base,
    clock,
    config,
    async token(user, opts = {}) {
      const t = await mintToken({ secret: SECRET, userId: user, ttlSeconds: opts.ttlSeconds ?? 86_400, clock, email: opts.email });
      return t.token;
    },
    get(path, init = {}) {
      return fetch(base + path, { ...init, headers: withToken(init) });
    },
    handle(path, init = {}) {
      return server.handle(new Request(base + path, { ...init, headers: withToken(init) }));
    },
    stop: () => server.stop(),
  };
}

function withToken(init: RequestInit & { token?: string }): Headers {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
  return headers;
}

/** Reads a JSON envelope and asserts nothing; tests do. */
export async function body(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}
