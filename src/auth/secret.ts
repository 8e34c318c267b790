/** Where the signing secret comes from: configuration, else one generated once and kept in the database. */
import type { Database } from "bun:sqlite";

const SETTING_KEY = "jwt_secret";

/**
 * Returns `configured` when set; otherwise the secret stored in settings `jwt_secret`, generating
 * 32 random bytes (base64url) on first use. Logs that it generated one, never the secret itself.
 * Safe when several processes start together: the first insert wins and everyone reads it back.
 */
export function resolveSecret(sqlite: Database, configured: string | undefined, log: (msg: string) => void): string {
  if (configured) return configured;
  const read = () => sqlite.query("SELECT value FROM settings WHERE key = ?").get(SETTING_KEY) as { value: string } | null;
  const existing = read();
  if (existing) return existing.value;
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const inserted = sqlite.query("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)").run(SETTING_KEY, fresh);
  if (inserted.changes === 1) {
    log("no JWT secret configured: generated a new one and stored it in the database (settings.jwt_secret); tokens stay valid across restarts");
  }
  return read()!.value;
}
