/**
 * The live floor: the least any server answering the metered endpoint must spend per request
 * (issue #22). jose `compactVerify` HS256 (key imported once), one write transaction that counts
 * the user's minute and day and inserts the request's row, the cached body with a new request id
 * and time written in place, the five rate-limit headers, an UPDATE of the row's status, and the
 * access line from our logger to a file. `--revocation` adds the read every server that can revoke
 * a token needs (one indexed lookup of the token's jti).
 * Usage: bun bench/live-floor.ts <captured.json> <log file> sqlite <db file> | pg <url> [--revocation]
 * (prints {"port":N}); captured.json holds {"body": "<one of our live 200 bodies>"}.
 */
import { Database } from "bun:sqlite";
import { openSync } from "node:fs";
import { SQL } from "bun";
import { compactVerify } from "jose";
import { createLogger } from "../src/logger.ts";

const [capturedPath, logPath, kind, target] = process.argv.slice(2) as [string, string, "sqlite" | "pg", string];
const revocation = process.argv.includes("--revocation");
const SECRET = process.env.FLOOR_SECRET ?? "bench-secret-0123456789abcdef";
const PER_MINUTE = 1_000_000;
const PER_DAY = 100_000_000;
const logger = createLogger("info", openSync(logPath, "a"), true);
const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
const body = (JSON.parse(await Bun.file(capturedPath).text()) as { body: string }).body;

interface Windows {
  minute: number;
  oldest: number;
  day: number;
  id: number;
}
interface Store {
  revoked(jti: string): Promise<boolean> | boolean;
  admit(requestId: string, user: string, now: number, dayStart: number): Promise<Windows> | Windows;
  finish(id: number, status: number): Promise<void> | void;
}

const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS floor_log (id INTEGER PRIMARY KEY, request_id TEXT NOT NULL, user_id TEXT NOT NULL, ts BIGINT NOT NULL, status INTEGER, counted INTEGER NOT NULL)",
  "CREATE INDEX IF NOT EXISTS floor_log_user ON floor_log (user_id, counted, ts)",
  "CREATE TABLE IF NOT EXISTS floor_days (user_id TEXT NOT NULL, day BIGINT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (user_id, day))",
  "CREATE TABLE IF NOT EXISTS floor_revoked (jti TEXT PRIMARY KEY)",
];

function sqliteStore(path: string): Store {
  const db = new Database(path, { create: true, strict: true });
  for (const p of ["busy_timeout = 10000", "journal_mode = WAL", "synchronous = NORMAL"]) db.exec(`PRAGMA ${p}`);
  for (const s of SCHEMA) db.exec(s);
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const minute = db.prepare<{ n: number; oldest: number | null }, [string, number]>(
    "SELECT count(*) AS n, min(ts) AS oldest FROM floor_log WHERE user_id = ? AND counted = 1 AND ts > ?",
  );
  const day = db.prepare<{ n: number }, [string, number]>("SELECT n FROM floor_days WHERE user_id = ? AND day = ?");
  const insert = db.prepare<{ id: number }, [string, string, number]>(
    "INSERT INTO floor_log (request_id, user_id, ts, counted) VALUES (?, ?, ?, 1) RETURNING id",
  );
  const count = db.prepare(
    "INSERT INTO floor_days (user_id, day, n) VALUES (?1, ?2, 1) ON CONFLICT (user_id, day) DO UPDATE SET n = n + 1",
  );
  const finish = db.prepare("UPDATE floor_log SET status = ? WHERE id = ?");
  const revoked = db.prepare<{ jti: string }, [string]>("SELECT jti FROM floor_revoked WHERE jti = ?");
  return {
    revoked: (jti) => revoked.get(jti) !== null,
    admit(requestId, user, now, dayStart) {
      begin.run();
      const m = minute.get(user, now - 60_000)!;
      const d = day.get(user, dayStart)?.n ?? 0;
      const id = insert.get(requestId, user, now)!.id;
      count.run(user, dayStart);
      commit.run();
      return { minute: m.n + 1, oldest: m.oldest ?? now, day: d + 1, id };
    },
    finish: (id, status) => void finish.run(status, id),
  };
}

async function pgStore(url: string): Promise<Store> {
  const sql = new SQL(url, { max: 10 });
  for (const s of SCHEMA) await sql.unsafe(s.replace("id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY"));
  return {
    revoked: async (jti) => (await sql`SELECT jti FROM floor_revoked WHERE jti = ${jti}`).length > 0,
    admit: (requestId, user, now, dayStart) =>
      sql.begin(async (tx) => {
        // The per-user lock makes the count exact across instances, as a serialisable count must be.
        await tx`SELECT pg_advisory_xact_lock(hashtext(${user}))`;
        const [m] =
          await tx`SELECT count(*)::int AS n, min(ts)::float8 AS oldest FROM floor_log WHERE user_id = ${user} AND counted = 1 AND ts > ${now - 60_000}`;
        const [d] = await tx`SELECT n FROM floor_days WHERE user_id = ${user} AND day = ${dayStart}`;
        const [row] =
          await tx`INSERT INTO floor_log (request_id, user_id, ts, counted) VALUES (${requestId}, ${user}, ${now}, 1) RETURNING id`;
        await tx`INSERT INTO floor_days (user_id, day, n) VALUES (${user}, ${dayStart}, 1) ON CONFLICT (user_id, day) DO UPDATE SET n = floor_days.n + 1`;
        return { minute: m.n + 1, oldest: m.oldest ?? now, day: (d?.n ?? 0) + 1, id: Number(row.id) };
      }),
    finish: async (id, status) => void (await sql`UPDATE floor_log SET status = ${status} WHERE id = ${id}`),
  };
}

const store = kind === "pg" ? await pgStore(target) : sqliteStore(target);
const at = body.lastIndexOf('"generated_at":"') + '"generated_at":"'.length;
const idEnd = body.indexOf('"', body.indexOf('"request_id":"', at) + '"request_id":"'.length);
const head = Buffer.from(body.slice(0, at));
const tail = Buffer.from(body.slice(idEnd));
const decoder = new TextDecoder();
const unauthorized = () => new Response('{"success":false}', { status: 401 });

const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const start = performance.now();
    const auth = req.headers.get("authorization");
    if (!auth?.startsWith("Bearer ")) return unauthorized();
    let claims: { sub: string; exp: number; jti?: string };
    try {
      claims = JSON.parse(decoder.decode((await compactVerify(auth.slice(7), key, { algorithms: ["HS256"] })).payload));
    } catch {
      return unauthorized();
    }
    const now = Date.now();
    if (claims.exp * 1000 <= now) return unauthorized();
    if (revocation && claims.jti && (await store.revoked(claims.jti))) return unauthorized();
    const requestId = crypto.randomUUID();
    const dayStart = now - (now % 86_400_000);
    const w = await store.admit(requestId, claims.sub, now, dayStart);
    const buf = Buffer.alloc(head.length + 128 + tail.length);
    buf.set(head, 0);
    const end = head.length + buf.write(`${new Date(now).toISOString()}","request_id":"${requestId}`, head.length, "latin1");
    buf.set(tail, end);
    const res = new Response(buf.subarray(0, end + tail.length), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-request-id": requestId,
        "x-ratelimit-limit": String(PER_MINUTE),
        "x-ratelimit-remaining": String(PER_MINUTE - w.minute),
        "x-ratelimit-daily-limit": String(PER_DAY),
        "x-ratelimit-daily-remaining": String(PER_DAY - w.day),
        "x-ratelimit-reset": String(Math.ceil((w.oldest + 60_000) / 1000)),
      },
    });
    await store.finish(w.id, 200);
    logger.request(requestId, req.method, "/v1/graph-stats/chart", 200, Math.round((performance.now() - start) * 1000), claims.sub);
    return res;
  },
});
console.log(JSON.stringify({ port: server.port }));
