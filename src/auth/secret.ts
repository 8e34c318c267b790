/**
 * Where the signing secret comes from: configuration, else one generated once and kept in the
 * database. The database also keeps a fingerprint of the secret the server last started with, so
 * the CLI never mints tokens with a secret the server does not use (docs/api.md § Tokens).
 */
import type { AuthStore } from "./auth-store.ts";
import { createHmac } from "node:crypto";

const SECRET_KEY = "jwt_secret";
/** Settings key of the fingerprint written by `serve`. */
export const FINGERPRINT_KEY = "jwt_secret_fingerprint";
/**
 * The fingerprint is HMAC-SHA256 keyed by the secret over this fixed label (hex): it identifies the
 * secret without revealing it, and unlike a bare hash it is useless as a check value for guesses
 * made against other systems that hash secrets plainly.
 */
const FINGERPRINT_LABEL = "graph-stats jwt secret fingerprint v1";

/** A command was given (or not given) a secret other than the server's. */
export class SecretMismatchError extends Error {
  override name = "SecretMismatchError";
}

export function secretFingerprint(secret: string): string {
  return createHmac("sha256", secret).update(FINGERPRINT_LABEL).digest("hex");
}

/** Where settings live: the AuthStore of either database. */
export type SettingsStore = Pick<AuthStore, "getSetting" | "setSetting" | "insertSettingIfAbsent">;

/**
 * The server's secret: `configured` when set; otherwise the secret stored in settings `jwt_secret`,
 * generating 32 random bytes (base64url) on first use. Records its fingerprint, and warns when it
 * differs from the one recorded before (tokens minted earlier will be refused). Logs that it
 * generated one, never the secret itself. Safe when several processes start together: the first
 * insert wins and everyone reads it back.
 */
export async function resolveSecret(store: SettingsStore, configured: string | undefined, log: (msg: string) => void): Promise<string> {
  const secret = configured || (await storedOrGenerated(store, log));
  const fingerprint = secretFingerprint(secret);
  const recorded = await store.getSetting(FINGERPRINT_KEY);
  if (recorded !== fingerprint) {
    await store.setSetting(FINGERPRINT_KEY, fingerprint);
    if (recorded !== null) {
      log(
        `the JWT secret differs from the one this database last recorded (settings.${FINGERPRINT_KEY}): tokens signed with the old one are refused unless it is listed in --jwt-previous-secrets`,
      );
    }
  }
  return secret;
}

/** The secret `serve` generated and keeps in settings, or null when none was (a configured secret is never stored). */
export async function storedSecret(store: SettingsStore): Promise<string | null> {
  return store.getSetting(SECRET_KEY);
}

/**
 * The secret a one-shot command (`token create`) signs with: the server's, checked against the
 * fingerprint `serve` recorded. Throws SecretMismatchError naming the setting when this command's
 * secret is not the server's, instead of generating one the server would refuse. Before any server
 * ran it resolves (and records) the secret as `serve` would.
 */
export async function secretForMinting(store: SettingsStore, configured: string | undefined, log: (msg: string) => void): Promise<string> {
  const recorded = await store.getSetting(FINGERPRINT_KEY);
  if (recorded === null) return resolveSecret(store, configured, log);
  if (configured) {
    if (secretFingerprint(configured) === recorded) return configured;
    throw new SecretMismatchError(
      `the JWT secret given (--jwt-secret or GRAPH_STATS_JWT_SECRET) does not match the one the server was last started with ` +
        `(settings.${FINGERPRINT_KEY}); tokens signed with it would be refused — give the server's secret`,
    );
  }
  const stored = await store.getSetting(SECRET_KEY);
  if (stored !== null && secretFingerprint(stored) === recorded) return stored;
  throw new SecretMismatchError(
    `the server was last started with a configured JWT secret, and this command was given none: set GRAPH_STATS_JWT_SECRET ` +
      `(or pass --jwt-secret) to the server's secret (the database keeps only its fingerprint, settings.${FINGERPRINT_KEY})`,
  );
}

async function storedOrGenerated(store: SettingsStore, log: (msg: string) => void): Promise<string> {
  const existing = await store.getSetting(SECRET_KEY);
  if (existing !== null) return existing;
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  if (await store.insertSettingIfAbsent(SECRET_KEY, fresh)) {
    log(
      `no JWT secret configured: generated a new one and stored it in the database (settings.${SECRET_KEY}); tokens stay valid across restarts`,
    );
  }
  return (await store.getSetting(SECRET_KEY))!;
}
