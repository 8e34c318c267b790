/**
 * The real server for the TypeScript client's tests: the compiled binary of these sources on a
 * temporary database holding the sample, with its own CLI for tokens, limits and usage.
 */
import { createHmac } from "node:crypto";
import { sampleDb, tempDbPath } from "../../../test/support/http/harness.ts";
import { runCli, type ServerProcess, spawnServer } from "../../../test/support/http/process.ts";

export const SECRET = "ts-client-test-secret-0123456789abcdef";
const ENV = { GRAPH_STATS_JWT_SECRET: SECRET };

export interface TestServer {
  process: ServerProcess;
  url: string;
  db: string;
  cli(...args: string[]): Promise<string>;
  token(user: string): Promise<string>;
  limits(user: string, perMinute: number, perDay: number): Promise<void>;
  usage(user: string): Promise<{ admitted: number; refused: number; uncounted: number }>;
}

export async function startServer(extra: string[] = []): Promise<TestServer> {
  const db = sampleDb(tempDbPath());
  const process = await spawnServer(["--port", "0", "--db", db, "--rate-per-minute", "10000", "--rate-per-day", "100000", ...extra], {
    env: ENV,
  });
  const cli = async (...args: string[]) => {
    const r = await runCli([...args, "--db", db], { env: ENV });
    if (r.code !== 0) throw new Error(`graph-stats ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
    return r.stdout;
  };
  return {
    process,
    url: process.base,
    db,
    cli,
    async token(user) {
      return JSON.parse(await cli("token", "create", "--user", user, "--json"))[0].token;
    },
    async limits(user, perMinute, perDay) {
      await cli("user", "limits", user, "--per-minute", String(perMinute), "--per-day", String(perDay));
    },
    async usage(user) {
      const rows = JSON.parse(await cli("usage", "--user", user, "--json")) as {
        day: string;
        admitted: number;
        refused: number;
        uncounted: number;
      }[];
      const today = new Date().toISOString().slice(0, 10);
      const row = rows.find((r) => r.day === today);
      return { admitted: row?.admitted ?? 0, refused: row?.refused ?? 0, uncounted: row?.uncounted ?? 0 };
    },
  };
}

/** An HS256 JWT signed with the server's secret, as the server mints them. */
export function sign(claims: Record<string, unknown>, secret = SECRET): string {
  const b64 = (s: string) => Buffer.from(s).toString("base64url");
  const head = `${b64(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64(JSON.stringify(claims))}`;
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`;
}

let n = 0;
/** A fresh user name for this process. */
export const userName = () => `ts-${process.pid}-${n++}`;

/** Stands in for the client's sleep: records each wait and does `then` at that moment. */
export function sleeps(then?: (ms: number) => Promise<void> | void) {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      await then?.(ms);
    },
  };
}
