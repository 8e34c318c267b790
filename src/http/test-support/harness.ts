/**
 * Test harness: a real server on a real port over a real SQLite file, with an injected clock,
 * and real HS256 tokens signed with the server's secret. The NIFTY-50 data is imported once per
 * harness into universe `nifty50` (the default universe here), so tests compute on real data.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintToken } from "../../auth/index.ts";
import { TestClock } from "../../clock.ts";
import { loadConfig, type Config } from "../../config.ts";
import { createLogger } from "../../logger.ts";
import { importCsvFiles } from "../../market/index.ts";
import { NIFTY_DIR, niftyFiles } from "../../market/test-support.ts";
import { startServer, type RunningServer, type StartOptions } from "../server.ts";
import { openDatabase } from "../../../db/open.ts";

export const SECRET = "test-secret-0123456789-abcdefghijklmnop";
export { NIFTY_DIR, niftyFiles };

export function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), "gs-http-")), "graph-stats.sqlite");
}

/** A database file with the NIFTY data imported (no synthetic sample), ready to serve. */
export function niftyDb(path = tempDbPath()): string {
  const opened = openDatabase(path);
  importCsvFiles(opened, niftyFiles(), { universe: "nifty50", interval: "1d" });
  opened.sqlite.close();
  return path;
}

export interface Harness {
  server: RunningServer;
  base: string;
  clock: TestClock;
  config: Config;
  token(user: string, opts?: { ttlSeconds?: number; email?: string }): Promise<string>;
  get(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  stop(): Promise<void>;
}

export async function startHarness(
  overrides: Record<string, unknown> = {},
  options: StartOptions & { dbPath?: string; start?: string } = {},
): Promise<Harness> {
  const clock = new TestClock(Date.parse(options.start ?? "2026-11-22T10:00:00Z"));
  const config = loadConfig(
    { port: "0", host: "127.0.0.1", db: options.dbPath ?? niftyDb(), jwtSecret: SECRET, defaultUniverse: "nifty50", sample: false, ...overrides },
    {},
  );
  const server = startServer(config, createLogger("silent"), { clock, ...options });
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
      const headers = new Headers(init.headers);
      if (init.token) headers.set("Authorization", `Bearer ${init.token}`);
      return fetch(base + path, { ...init, headers });
    },
    stop: () => server.stop(),
  };
}

/** Reads a JSON envelope and asserts nothing; tests do. */
export async function body(res: Response): Promise<any> {
  return JSON.parse(await res.text());
}
