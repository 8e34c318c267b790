/** `plan create|set|list|delete`: named limit sets (docs/operator.md § Plans), each change in the admin audit log. */
import { intFlag, UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { cliActor } from "./operator-actor.ts";
import { agreedSettings } from "./server-settings.ts";
import { StatusError } from "../status-error.ts";

const SUBS = ["create", "set", "list", "delete"];

export async function planCommand(args: ParsedArgs): Promise<number> {
  const [sub, name] = args.positionals;
  if (!sub || !SUBS.includes(sub)) throw new UsageError(`plan needs a subcommand: ${SUBS.join(", ")}${sub ? ` (got '${sub}')` : ""}`);
  if (sub !== "list" && !name) throw new UsageError(`plan ${sub} needs a plan NAME`);
  const perMinute = intFlag("per-minute", args.flags["per-minute"]);
  const perDay = intFlag("per-day", args.flags["per-day"]);
  if (sub === "create" && (perMinute === undefined || perDay === undefined))
    throw new UsageError("plan create needs --per-minute N and --per-day N");
  if (sub === "set" && perMinute === undefined && perDay === undefined)
    throw new UsageError("plan set needs --per-minute N and/or --per-day N");
  const stores = await openCommandStores(args);
  const actor = cliActor(args.env);
  try {
    const defaults = await agreedSettings(stores.auth, args);
    const limits = { perMinute: defaults.ratePerMinute, perDay: defaults.ratePerDay };
    if (sub === "create") {
      const p = await stores.admin.createPlan(actor, name!, { perMinute: perMinute!, perDay: perDay! });
      console.log(`plan ${p.name} created: per_minute ${p.perMinute}, per_day ${p.perDay}`);
    } else if (sub === "set") {
      const p = await stores.admin.setPlan(actor, name!, { perMinute, perDay }, limits);
      console.log(`plan ${p.name}: per_minute ${p.perMinute}, per_day ${p.perDay}`);
    } else if (sub === "delete") {
      await stores.admin.deletePlan(actor, name!);
      console.log(`plan ${name} deleted`);
    } else {
      const plans = await stores.admin.plans(limits);
      if (args.flags.json) {
        console.log(
          JSON.stringify(
            plans.map((p) => ({
              name: p.name,
              per_minute: p.perMinute,
              per_day: p.perDay,
              users: p.users ?? 0,
              default: p.name === "free",
            })),
            null,
            2,
          ),
        );
      } else {
        console.log(["plan", "per_minute", "per_day", "users"].join("\t"));
        for (const p of plans)
          console.log([p.name, p.perMinute, p.perDay, p.users ?? 0].join("\t") + (p.stored ? "" : "\t(the server's defaults)"));
      }
    }
    return 0;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    console.error(`graph-stats: ${err.message}`);
    return 1;
  } finally {
    await stores.close();
  }
}
