/**
 * `universe list | show NAME | remove NAME SYMBOL... | delete NAME [--purge]`, each with `--json`:
 * the same catalogue GET /v1/universes answers (src/market/universe-catalogue.ts), and the two
 * writes that shrink the data (src/market/metadata-rules.ts), each moving the data version.
 * Deleting the configured default universe is refused: the live endpoint would answer 404 to
 * every request without a universe.
 */
import type { Interval } from "../engine/types.ts";
import type { MarketStore } from "../market/store.ts";
import type { UniverseDetail } from "../market/universe-catalogue.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";

const SUBCOMMANDS = ["list", "show", "remove", "delete"];

export async function universeCommand(args: ParsedArgs): Promise<number> {
  const [sub, name, ...symbols] = args.positionals;
  if (!sub || !SUBCOMMANDS.includes(sub)) {
    throw new UsageError(`universe needs a subcommand: list, show, remove or delete${sub ? ` (got '${sub}')` : ""}`);
  }
  if (sub !== "list" && !name) throw new UsageError(`universe ${sub} needs a universe NAME`);
  if (sub === "remove" && symbols.length === 0) throw new UsageError("universe remove needs NAME and at least one SYMBOL");
  if (sub !== "remove" && symbols.length > 0) throw new UsageError(`universe ${sub} takes ${sub === "list" ? "no" : "one"} argument`);
  if (args.flags.purge && sub !== "delete") throw new UsageError("--purge goes with universe delete only");
  if (sub === "delete" && name === args.config.defaultUniverse) {
    console.error(
      `graph-stats: universe '${name}' is the configured default universe (--default-universe, GRAPH_STATS_DEFAULT_UNIVERSE): ` +
        "live requests without a universe would all fail; configure another default first, then delete it",
    );
    return 1;
  }
  const stores = await openCommandStores(args);
  try {
    const market = stores.market;
    if (sub === "list") return await list(market, args.flags.json === true);
    if (sub === "show") return await show(market, name!, args.flags.json === true);
    if (sub === "remove") {
      const r = await market.removeMembers(name!, symbols);
      if (!r) return unknown(market, name!);
      if (args.flags.json) console.log(JSON.stringify({ universe: name, removed: r.removed, not_members: r.notMembers }, null, 2));
      else {
        if (r.notMembers.length > 0) console.error(`graph-stats: not members of ${name}: ${r.notMembers.join(", ")}`);
        console.log(
          `universe ${name}: ${r.removed.length} symbol(s) removed${r.removed.length ? ` (${r.removed.join(", ")})` : ""}; bars kept`,
        );
      }
      return r.notMembers.length > 0 ? 1 : 0;
    }
    const d = await market.deleteUniverse(name!, args.flags.purge === true);
    if (!d) return unknown(market, name!);
    if (args.flags.json) {
      console.log(JSON.stringify({ universe: name, members: d.members.length, purged: d.purged, bars_deleted: d.barsDeleted }, null, 2));
    } else {
      const purged = args.flags.purge
        ? `; ${d.barsDeleted} bar(s) of ${d.purged.length} symbol(s) no other universe lists deleted`
        : "; bars kept (--purge deletes those no other universe lists)";
      console.log(`universe ${name} deleted (${d.members.length} member(s))${purged}`);
    }
    return 0;
  } finally {
    await stores.close();
  }
}

async function unknown(market: MarketStore, name: string): Promise<number> {
  const known = await market.listUniverses();
  console.error(`graph-stats: unknown universe '${name}'; known universes: ${known.length ? known.join(", ") : "none"}`);
  return 1;
}

async function list(market: MarketStore, json: boolean): Promise<number> {
  const { universes } = await market.catalogue(await market.dataVersion());
  if (json) {
    console.log(JSON.stringify(universes, null, 2));
    return 0;
  }
  for (const u of universes) {
    const span = u.first_bar ? `${u.first_bar.slice(0, 10)} … ${u.last_bar!.slice(0, 10)}` : "no bars";
    console.log(`${u.name}\t${u.symbols} symbol(s)\t${u.intervals.join(",") || "-"}\t${span}\t${u.data_source}`);
  }
  if (universes.length === 0) console.log("no universes (import one first)");
  return 0;
}

async function show(market: MarketStore, name: string, json: boolean): Promise<number> {
  const d = await market.universeDetail(name, await market.dataVersion());
  if (!d) return unknown(market, name);
  if (json) {
    console.log(JSON.stringify(d, null, 2));
    return 0;
  }
  console.log(`${d.name}: ${d.symbols.length} symbol(s), ${d.data_source}, data version ${d.data_version}`);
  for (const iv of d.intervals) {
    const c = d.calendar[iv]!;
    console.log(`  ${iv}: ${c.bars} calendar bar(s) ${c.first} … ${c.last}`);
  }
  for (const s of d.symbols) console.log(memberLine(s, d.intervals));
  return 0;
}

function memberLine(s: UniverseDetail["symbols"][number], intervals: Interval[]): string {
  const meta = [s.name, s.sector, s.industry].filter((x) => x !== null).join(" · ");
  const cov = intervals.map((iv) => {
    const c = s.coverage[iv];
    return c ? `${iv} ${c.first.slice(0, 10)}…${c.last.slice(0, 10)} ${c.bars} bars, ${c.missing} missing` : `${iv} none`;
  });
  return `  ${s.symbol}${meta ? ` (${meta})` : ""}: ${cov.join("; ")}`;
}
