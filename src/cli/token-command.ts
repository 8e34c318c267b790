/**
 * `token create|list|revoke`: minting uses the server's secret (checked against the fingerprint
 * `serve` recorded) and its token lifetime, and creates the user so it can be disabled at once.
 */
import { mintToken, parseDuration } from "../auth/index.ts";
import { secretForMinting } from "../auth/secret.ts";
import { systemClock } from "../clock.ts";
import { intFlag, UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { cliActor } from "./operator-actor.ts";
import { agreedSettings } from "./server-settings.ts";
import { userIdOf } from "./user-ref.ts";

const USER_ID = /^[A-Za-z0-9@._:-]{1,128}$/;

export async function tokenCommand(args: ParsedArgs): Promise<number> {
  const [sub, ...rest] = args.positionals;
  if (sub === "create") return create(args);
  if (sub === "list") return list(args);
  if (sub === "revoke") return revoke(args, rest);
  throw new UsageError(`token needs a subcommand: create, list or revoke${sub ? ` (got '${sub}')` : ""}`);
}

function userIds(args: ParsedArgs): string[] {
  const explicit = args.flags.user ?? [];
  const n = intFlag("users", args.flags.users, 1, 100_000);
  if (explicit.length && n) throw new UsageError("give either --user ID (repeatable) or --users N, not both");
  const prefix = args.flags.prefix ?? "load-";
  const ids = n ? Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`) : explicit;
  if (ids.length === 0) throw new UsageError("token create needs --user ID or --users N");
  for (const id of ids) if (!USER_ID.test(id)) throw new UsageError(`user id '${id}' must be 1-128 of [A-Za-z0-9@._:-]`);
  return ids;
}

async function create(args: ParsedArgs): Promise<number> {
  const ids = userIds(args);
  if (args.flags.ttl !== undefined) ttlSeconds("--ttl", args.flags.ttl); // a usage error before the database is touched
  const stores = await openCommandStores(args);
  try {
    const agreed = await agreedSettings(stores.auth, args);
    for (const note of agreed.notes) console.error(`graph-stats: ${note}`);
    const ttl = args.flags.ttl !== undefined ? ttlSeconds("--ttl", args.flags.ttl) : ttlSeconds("--token-ttl", agreed.tokenTtl);
    const secret = await secretForMinting(stores.auth, args.config.jwtSecret, (m) => console.error(m));
    const out: { user: string; token: string; jti: string; expires_at: string }[] = [];
    const now = Date.now();
    const minted = [];
    for (const userId of ids) {
      const t = await mintToken({ secret, userId, ttlSeconds: ttl, clock: systemClock, email: args.flags.email });
      minted.push({ ...t, userId });
      out.push({ user: userId, token: t.token, jti: t.jti, expires_at: new Date(t.exp * 1000).toISOString() });
    }
    // Users and tokens in one transaction: all of them are recorded, or none.
    await stores.auth.issueTokens(
      minted.map((m) => ({ jti: m.jti, userId: m.userId, issuedAt: m.iat * 1000, expiresAt: m.exp * 1000 })),
      { email: args.flags.email, now },
    );
    const target = ids.length === 1 ? ids[0]! : `${ids.length} users`;
    await stores.admin.recordTokensIssued(
      cliActor(args.env),
      target,
      minted.map((m) => m.jti),
    );
    if (args.flags.json) console.log(JSON.stringify(out, null, 2));
    else for (const t of out) console.log(t.token);
    return 0;
  } finally {
    await stores.close();
  }
}

function ttlSeconds(flag: string, raw: string): number {
  try {
    return parseDuration(raw);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}

async function list(args: ParsedArgs): Promise<number> {
  const stores = await openCommandStores(args);
  try {
    const ref = args.flags.user?.[0];
    const rows = await stores.auth.listTokens({ userId: ref === undefined ? undefined : await userIdOf(stores, ref) });
    const now = Date.now();
    const shown = rows.map((r) => ({
      jti: r.jti,
      user: r.userId,
      issued_at: r.issuedAt ? new Date(r.issuedAt).toISOString() : null,
      expires_at: r.expiresAt ? new Date(r.expiresAt).toISOString() : null,
      status: r.revokedAt ? "revoked" : r.expiresAt <= now ? "expired" : "active",
    }));
    if (args.flags.json) console.log(JSON.stringify(shown, null, 2));
    else {
      console.log(["jti", "user", "issued_at", "expires_at", "status"].join("\t"));
      for (const r of shown) console.log([r.jti, r.user, r.issued_at ?? "-", r.expires_at ?? "-", r.status].join("\t"));
    }
    return 0;
  } finally {
    await stores.close();
  }
}

async function revoke(args: ParsedArgs, jtis: string[]): Promise<number> {
  if (jtis.length === 0) throw new UsageError("token revoke needs at least one JTI (see 'token list')");
  const stores = await openCommandStores(args);
  try {
    let unknown = 0;
    for (const jti of jtis) {
      const outcome = await stores.admin.revokeToken(cliActor(args.env), jti);
      console.log(`${jti}: ${outcome}`);
      if (outcome === "revoked-unknown-jti") unknown++;
    }
    if (unknown > 0) {
      // Recorded anyway (a token minted elsewhere with the same secret is shut off too), but a typo must not pass silently.
      console.error(`graph-stats: ${unknown} jti(s) were never minted by this database (see 'token list'); recorded as revoked anyway`);
      return 1;
    }
    return 0;
  } finally {
    await stores.close();
  }
}
