/** `audit [--target T] [--actor A] [--limit N] [--json]`: the admin audit log, newest first (docs/operator.md § Audit log). */
import { intFlag, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { userIdOf } from "./user-ref.ts";

export async function auditCommand(args: ParsedArgs): Promise<number> {
  const limit = intFlag("limit", args.flags.limit, 1, 1000) ?? 50;
  const stores = await openCommandStores(args);
  try {
    const target = args.flags.target === undefined ? undefined : await targetOf(stores, args.flags.target);
    const rows = await stores.admin.audit({ limit, target, actor: args.flags.actor });
    const shown = rows.map((r) => ({
      id: r.id,
      time: new Date(r.ts).toISOString(),
      actor: r.actor,
      action: r.action,
      target: r.target,
      before: r.before === null ? null : JSON.parse(r.before),
      after: r.after === null ? null : JSON.parse(r.after),
    }));
    if (args.flags.json) console.log(JSON.stringify(shown, null, 2));
    else {
      console.log(["time (UTC)", "actor", "action", "target", "before", "after"].join("\t"));
      for (const r of rows)
        console.log([new Date(r.ts).toISOString(), r.actor, r.action, r.target, r.before ?? "-", r.after ?? "-"].join("\t"));
    }
    return 0;
  } finally {
    await stores.close();
  }
}

/** A target given as a user's e-mail is its id (the log names users by id); anything else as given. */
async function targetOf(stores: Awaited<ReturnType<typeof openCommandStores>>, t: string): Promise<string> {
  return t.includes("@") ? userIdOf(stores, t) : t;
}
