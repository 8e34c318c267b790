/**
 * `user create|disable|enable|limits|plan|admin|revoke-tokens|show|list`. Every USER is a user id or
 * the e-mail the user signed in with; every change is written to the admin audit log.
 */
import type { UserRecord } from "../auth/index.ts";
import { userView, type UserView } from "../admin/user-view.ts";
import { StatusError } from "../status-error.ts";
import { intFlag, UsageError, type ParsedArgs } from "./args.ts";
import { type CommandStores, openCommandStores } from "./command-stores.ts";
import { cliActor } from "./operator-actor.ts";
import { agreedSettings } from "./server-settings.ts";

const SUBS = ["create", "disable", "enable", "limits", "plan", "admin", "revoke-tokens", "show", "list"];

export async function userCommand(args: ParsedArgs): Promise<number> {
  const [sub, ref, plan] = args.positionals;
  if (!sub || !SUBS.includes(sub)) throw new UsageError(`user needs a subcommand: ${SUBS.join(", ")}${sub ? ` (got '${sub}')` : ""}`);
  if (sub !== "list" && !ref) throw new UsageError(`user ${sub} needs a USER (its id or e-mail)`);
  if (sub === "plan" && !plan) throw new UsageError("user plan needs USER and PLAN (see 'plan list')");
  if (sub === "admin" && args.flags.on === args.flags.off) throw new UsageError("user admin needs --on or --off");
  const stores = await openCommandStores(args);
  try {
    return await run(sub, ref, plan, args, stores);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    console.error(`graph-stats: ${err.message}`);
    return 1;
  } finally {
    await stores.close();
  }
}

async function run(
  sub: string,
  ref: string | undefined,
  plan: string | undefined,
  args: ParsedArgs,
  stores: CommandStores,
): Promise<number> {
  const { admin } = stores;
  const actor = cliActor(args.env);
  if (sub === "create") {
    const { created } = await admin.createUser(actor, ref!, args.flags.email);
    console.log(created ? `user ${ref} created` : `user ${ref} already exists`);
    return 0;
  }
  if (sub === "list") return list(args, stores, ref ?? "");
  const user = await admin.resolveUser(ref!);
  const id = user.id;
  if (sub === "disable" || sub === "enable") {
    await admin.setDisabled(actor, id, sub === "disable");
    console.log(`user ${id} ${sub}d`);
    return 0;
  }
  if (sub === "admin") {
    const on = args.flags.on === true;
    await admin.setAdmin(actor, id, on);
    console.log(`user ${id} ${on ? "is an admin" : "is not an admin"}`);
    return 0;
  }
  if (sub === "revoke-tokens") {
    const jtis = await admin.revokeTokensOf(actor, id);
    console.log(`user ${id}: ${jtis.length} live token(s) revoked${jtis.length ? `: ${jtis.join(" ")}` : ""}`);
    return 0;
  }
  let after: UserRecord = user;
  if (sub === "plan") after = await admin.assignPlan(actor, id, plan!);
  if (sub === "limits") {
    const perMinute = intFlag("per-minute", args.flags["per-minute"]);
    const perDay = intFlag("per-day", args.flags["per-day"]);
    if (args.flags.reset && (perMinute !== undefined || perDay !== undefined)) {
      throw new UsageError("give either --reset (back to the plan's limits) or --per-minute/--per-day, not both");
    }
    if (args.flags.reset) after = await admin.setLimits(actor, id, null);
    else if (perMinute !== undefined || perDay !== undefined) after = await admin.setLimits(actor, id, { perMinute, perDay });
  }
  // The defaults shown are the server's (recorded by serve), not this shell's environment.
  const defaults = await agreedSettings(stores.auth, args);
  for (const note of defaults.notes.filter((n) => n.includes("RATE_"))) console.error(`graph-stats: ${note}`);
  const view = await userView(after, stores.account, { perMinute: defaults.ratePerMinute, perDay: defaults.ratePerDay }, Date.now());
  if (sub === "show") {
    console.log(args.flags.json ? JSON.stringify(view, null, 2) : showText(view));
    return 0;
  }
  console.log(`user ${id}: ${limitsText(view)}${view.disabled ? ", disabled" : ""}`);
  return 0;
}

const SOURCE = { own: "", plan: " (plan)", default: " (default)" };
const limitsText = (v: UserView) =>
  `plan ${v.plan}, per_minute ${v.per_minute}${SOURCE[v.per_minute_from]}, per_day ${v.per_day}${SOURCE[v.per_day_from]}`;

function showText(v: UserView): string {
  return [
    `user ${v.id}${v.email ? ` <${v.email}>` : ""}`,
    `  ${limitsText(v)}`,
    `  disabled ${v.disabled}, admin ${v.admin}, created ${v.created_at}`,
    `  live tokens ${v.live_tokens}; requests today ${v.requests_today}, last 30 days ${v.requests_30_days}`,
  ].join("\n");
}

async function list(args: ParsedArgs, stores: CommandStores, text: string): Promise<number> {
  const limit = intFlag("limit", args.flags.limit, 1, 500) ?? 50;
  const offset = intFlag("offset", args.flags.offset, 0, 1_000_000_000) ?? 0;
  const { users, total } = await stores.admin.searchUsers(text, { limit, offset });
  const rows = users.map((u) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    plan: u.plan ?? "free",
    per_minute: u.perMinute,
    per_day: u.perDay,
    disabled: u.disabled,
    admin: u.admin,
    live_tokens: u.liveTokens,
  }));
  if (args.flags.json) {
    console.log(JSON.stringify({ total, offset, users: rows }, null, 2));
    return 0;
  }
  console.log(["id", "email", "name", "plan", "own_limits", "disabled", "admin", "live_tokens"].join("\t"));
  for (const r of rows) {
    const own = r.per_minute === null && r.per_day === null ? "-" : `${r.per_minute ?? "plan"}/min ${r.per_day ?? "plan"}/day`;
    console.log([r.id, r.email ?? "-", r.name ?? "-", r.plan, own, r.disabled, r.admin, r.live_tokens].join("\t"));
  }
  if (offset + rows.length < total)
    console.error(`graph-stats: ${rows.length} of ${total} shown; --offset ${offset + rows.length} for more`);
  return 0;
}
