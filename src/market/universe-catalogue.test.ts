/**
 * The catalogue's port statements and rules, the same cases on SQLite and a real PostgreSQL
 * (test/support/both-databases.ts): bar spans, the union calendar, metadata, removing members,
 * deleting a universe and its bars, and what the list and the detail make of them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { pgMarketPort } from "../../db/pg/market-statements.ts";
import { sqliteMarketPort } from "../../db/sqlite/market-statements.ts";
import { closeBackends, emptiedBackends, KINDS } from "../../test/support/both-databases.ts";
import type { Bar } from "./bar.ts";
import type { MarketPort } from "./market-port.ts";
import { run } from "./rule.ts";
import { catalogueRule, slotsBetween, universeDetailRule } from "./universe-catalogue.ts";
import { extendUniverseRule } from "./universes.ts";

afterAll(closeBackends);
const backend = emptiedBackends(["bars", "universe_members", "universes", "settings", "symbol_metadata"]);

async function portOf(kind: (typeof KINDS)[number]): Promise<MarketPort> {
  const b = await backend(kind);
  return b.kind === "sqlite" ? sqliteMarketPort(b.sqlite.sqlite, b.sqlite.path) : pgMarketPort(b.pg.sql);
}

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
const bar = (ts: number, offsetMin = 0): Bar => ({ ts, offsetMin, open: 1, high: 1, low: 1, close: 1, volume: 1 });

/** Daily bars of each symbol on the given day numbers (0 = 2024-01-01), in universe `u`. */
async function write(port: MarketPort, u: string, bySymbol: Record<string, number[]>, minute: Record<string, number> = {}) {
  await port.locked((tx) =>
    run(
      (function* () {
        yield tx.replaceBars(
          Object.entries(bySymbol).map(([symbol, ds]) => ({
            symbol,
            sector: "",
            daily: ds.map((d) => bar(T0 + d * DAY)),
            minute: Array.from({ length: minute[symbol] ?? 0 }, (_, m) => bar(T0 + 30 * DAY + m * 60_000)),
          })),
        );
        yield* extendUniverseRule(tx, u, Object.keys(bySymbol), "imported", 0);
        yield tx.bumpDataVersion();
      })(),
    ),
  );
}

test("slotsBetween counts calendar entries in a closed range", () => {
  const cal = [1, 3, 5, 7];
  expect([
    slotsBetween(cal, 1, 7),
    slotsBetween(cal, 2, 6),
    slotsBetween(cal, 3, 3),
    slotsBetween(cal, 8, 9),
    slotsBetween([], 0, 1),
  ]).toEqual([4, 2, 1, 0, 0]);
});

for (const kind of KINDS) {
  describe(`the catalogue on ${kind}`, () => {
    test("statements: bar spans, the union calendar, metadata", async () => {
      const port = await portOf(kind);
      await write(port, "u", { A: [0, 1, 2, 3], B: [1, 3] }, { A: 3 });
      const spans = await port.barSpans(["A", "B", "Z"], "1d");
      expect(spans.get("A")).toEqual({ first: [T0, 0], last: [T0 + 3 * DAY, 0], bars: 4 });
      expect(spans.get("B")).toEqual({ first: [T0 + DAY, 0], last: [T0 + 3 * DAY, 0], bars: 2 });
      expect(spans.has("Z")).toBe(false);
      expect((await port.barSpans(["A", "B"], "1m")).get("A")!.bars).toBe(3);
      expect(await port.calendar(["A", "B"], "1d")).toEqual([0, 1, 2, 3].map((d) => T0 + d * DAY));
      expect(await port.calendar(["B"], "1d")).toEqual([T0 + DAY, T0 + 3 * DAY]);
      expect((await port.metadata(["A"])).size).toBe(0);
      const changed = await port.locked((tx) =>
        tx.upsertMetadata(
          [
            { symbol: "A", name: 'Alpha "A" Ltd', sector: "Banks", industry: null },
            { symbol: "B", name: null, sector: "IT\\Services", industry: "Software" },
          ],
          5,
        ),
      );
      expect(changed).toBe(2);
      const again = await port.locked((tx) =>
        tx.upsertMetadata([{ symbol: "A", name: 'Alpha "A" Ltd', sector: "Banks", industry: null }], 6),
      );
      expect(again).toBe(0);
      const meta = await port.metadata(["A", "B", "C"]);
      expect(meta.get("A")).toEqual({ name: 'Alpha "A" Ltd', sector: "Banks", industry: null });
      expect(meta.get("B")).toEqual({ name: null, sector: "IT\\Services", industry: "Software" });
      expect(meta.has("C")).toBe(false);
    });

    test("the list and the detail: intervals, bounds, missing bars, metadata", async () => {
      const port = await portOf(kind);
      await write(port, "u", { A: [0, 1, 2, 3, 4], B: [0, 2, 4], C: [2, 3] }, { C: 2 });
      await write(port, "v", { D: [9] });
      // C joins v without its bars being rewritten: they are the ones u lists.
      await port.locked((tx) => run(extendUniverseRule(tx, "v", ["C"], "imported", 0)));
      await port.locked((tx) => tx.upsertMetadata([{ symbol: "B", name: "Bee", sector: "S1", industry: "I1" }], 1));
      const { universes, lastBars } = await run(catalogueRule(port, 7));
      expect(universes).toEqual([
        {
          name: "u",
          symbols: 3,
          intervals: ["1m", "1d"],
          first_bar: "2024-01-01T00:00:00+00:00",
          last_bar: "2024-01-31T00:01:00+00:00",
          data_source: "imported",
          data_version: 7,
        },
        {
          name: "v",
          symbols: 2,
          intervals: ["1m", "1d"],
          first_bar: "2024-01-03T00:00:00+00:00",
          last_bar: "2024-01-31T00:01:00+00:00",
          data_source: "imported",
          data_version: 7,
        },
      ]);
      expect(lastBars).toContainEqual({ universe: "v", interval: "1d", ts: T0 + 9 * DAY });
      const d = (await run(universeDetailRule(port, "u", 7)))!;
      expect(d.calendar["1d"]).toEqual({ first: "2024-01-01T00:00:00+00:00", last: "2024-01-05T00:00:00+00:00", bars: 5 });
      expect(d.symbols.map((s) => [s.symbol, s.coverage["1d"]?.bars, s.coverage["1d"]?.missing, s.coverage["1m"]?.bars])).toEqual([
        ["A", 5, 0, undefined],
        ["B", 3, 2, undefined],
        ["C", 2, 0, 2],
      ]);
      expect(d.symbols[1]).toMatchObject({ name: "Bee", sector: "S1", industry: "I1" });
      expect(await run(universeDetailRule(port, "nope", 7))).toBeNull();
    });

    test("removing members, deleting a universe and purging bars", async () => {
      const port = await portOf(kind);
      await write(port, "u", { A: [0, 1], B: [0, 1], C: [0] });
      await write(port, "w", { C: [0] });
      expect(await port.locked((tx) => tx.removeMembers("u", ["B", "Z"]))).toBe(1);
      expect((await port.members("u")).map((m) => m.symbol)).toEqual(["A", "C"]);
      expect((await port.barSpans(["B"], "1d")).get("B")!.bars).toBe(2);
      await port.locked((tx) => tx.deleteUniverse("u"));
      expect(await port.universe("u")).toBeNull();
      expect(await port.members("u")).toEqual([]);
      expect(await port.universeNames()).toEqual(["w"]);
      expect(await port.locked((tx) => tx.deleteBars(["A", "B"]))).toBe(4);
      expect((await port.storedPairs()).map((p) => p[0])).toEqual(["C"]);
    });
  });
}
