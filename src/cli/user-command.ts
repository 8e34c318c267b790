/** `user create|disable|enable|limits`. */
import { intFlag, UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { agreedSettings } from "./server-settings.ts";

export async function userCommand(args: ParsedArgs): Promise<number> {
  const [sub, id] = args.positionals;
  if (!sub || !["create", "disable", "enable", "limits"].includes(sub)) {
    throw new UsageError(`user needs a subcommand: create, disable, enable or limits${sub ? ` (got '${sub}')` : ""}`);
  }
  if (!id) throw new UsageError(`user ${sub} needs a user ID`);
  const stores = await openCommandStores(args);
  const { auth } = stores;
  try {
    if (sub === "create") {
      const { created } = await auth.createUser({ id, email: args.flags.email, now: Date.now() });
      console.log(created ? `user ${id} created` : `user ${id} already exists`);
      return 0;
    }
    if (!(await auth.getUser(id))) {
      console.error(`graph-stats: no user '${id}' (users are created by 'user create' or on first use of a valid token)`);
      return 1;
    }
    if (sub === "disable" || sub === "enable") {
      await auth.setDisabled(id, sub === "disable");
      console.log(`user ${id} ${sub}d`);
      return 0;
    }
    const perMinute = intFlag("per-minute", args.flags["per-minute"]);
    const perDay = intFlag("per-day", args.flags["per-day"]);
    if (args.flags.reset && (perMinute !== undefined || perDay !== undefined)) {
      throw new UsageError("give either --reset (back to the defaults) or --per-minute/--per-day, not both");
    }
    if (args.flags.reset) await auth.setLimits(id, null);
    else if (perMinute !== undefined || perDay !== undefined) await auth.setLimits(id, { perMinute, perDay });
    const u = (await auth.getUser(id))!;
    // The defaults shown are the server's (recorded by serve), not this shell's environment.
    const defaults = await agreedSettings(auth, args);
    for (const note of defaults.notes.filter((n) => n.includes("RATE_"))) console.error(`graph-stats: ${note}`);
    const show = (own: number | null, global: number) => (own === null ? `${global} (default)` : String(own));
    console.log(
      `user ${id}: per_minute ${show(u.perMinute, defaults.ratePerMinute)}, per_day ${show(u.perDay, defaults.ratePerDay)}${u.disabled ? ", disabled" : ""}`,
    );
    return 0;
  } finally {
    await stores.close();
  }
}
