/**
 * Another process holding SQLite's write lock (BEGIN IMMEDIATE) on a database file, as a CLI import,
 * a backup or another worker's long write does. It lets go when told, or by itself after `maxMs`;
 * release() says which came first, so a test knows that whatever it saw before was seen while the
 * lock was held: an order of events, not a duration.
 */
import type { Subprocess } from "bun";

export type Released = "on request" | "by itself";

export interface WriteLockHolder {
  proc: Subprocess<"pipe", "pipe", "inherit">;
  /** Tells the holder to let go (unless it already has) and says how it ended. */
  release(): Promise<Released>;
  /** Waits for the holder to let go, by itself unless told, and says how it ended. */
  ended(): Promise<Released>;
}

/** Resolves once the other process holds the lock. */
export async function holdWriteLock(path: string, maxMs: number): Promise<WriteLockHolder> {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(path)});
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec("BEGIN IMMEDIATE");
    const end = (how) => { db.exec("ROLLBACK"); db.close(); console.log("released " + how); process.exit(0); };
    const timer = setTimeout(() => end("by itself"), ${maxMs});
    process.stdin.on("data", () => { clearTimeout(timer); end("on request"); });
    console.log("locked");
  `;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  let text = "";
  let locked!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  const output = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes("locked")) locked();
    }
    locked();
  })();
  await held;
  if (!text.includes("locked")) throw new Error(`the lock holder ended (${await proc.exited}) before it held the lock`);
  const ended = async (): Promise<Released> => {
    await output;
    return text.includes("released by itself") ? "by itself" : "on request";
  };
  return {
    proc,
    ended,
    async release() {
      try {
        proc.stdin.write("release\n");
        proc.stdin.flush();
      } catch {
        // It already let go by itself and closed its end.
      }
      return ended();
    },
  };
}
