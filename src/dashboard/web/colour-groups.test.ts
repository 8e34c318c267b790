import { describe, expect, test } from "bun:test";
import { colourGroups, colourLabel, NEUTRAL_COLOUR, sectorAgreementText } from "./colour-groups.ts";
import type { StockModel } from "./network-data.ts";
import { COMMUNITY_COLOURS } from "./palette.ts";

const stock = (symbol: string, community: number | null, sector: string | null): StockModel => ({ symbol, community, sector, values: {} });
const STOCKS = [stock("A", 2, "it"), stock("B", 0, "banks"), stock("C", 2, null), stock("D", 0, "it"), stock("E", null, "energy")];

describe("colourGroups", () => {
  test("by community: one group per community in the API's order, its palette colour; no community, no group", () => {
    const c = colourGroups(STOCKS, "community");
    expect(c.groups).toEqual([
      { name: "Community 0", colour: COMMUNITY_COLOURS[0], cssClass: "c0", count: 2 },
      { name: "Community 2", colour: COMMUNITY_COLOURS[2], cssClass: "c2", count: 2 },
    ]);
    expect(Object.fromEntries(c.groupOf)).toEqual({ A: 1, B: 0, C: 1, D: 0 });
  });

  test("by sector: the sectors alphabetically in palette order, then the stocks without one in the neutral grey", () => {
    const c = colourGroups(STOCKS, "sector");
    expect(c.groups).toEqual([
      { name: "banks", colour: COMMUNITY_COLOURS[0], cssClass: "c0", count: 1 },
      { name: "energy", colour: COMMUNITY_COLOURS[1], cssClass: "c1", count: 1 },
      { name: "it", colour: COMMUNITY_COLOURS[2], cssClass: "c2", count: 2 },
      { name: "no sector", colour: NEUTRAL_COLOUR, cssClass: "cx", count: 1 },
    ]);
    expect(Object.fromEntries(c.groupOf)).toEqual({ A: 2, B: 0, C: 3, D: 2, E: 1 });
    expect(colourLabel(c, "sector")).toStartWith(
      "Correlation network: nodes coloured by sector (banks 1, energy 1, it 2, no sector 1), sized",
    );
  });

  test("by sector with every sector known: no grey group; eleven sectors wrap round the palette", () => {
    const many = Array.from({ length: 11 }, (_, i) => stock(`S${i}`, 0, `sector${String(i).padStart(2, "0")}`));
    const c = colourGroups(many, "sector");
    expect(c.groups.map((g) => g.name)).not.toContain("no sector");
    expect(c.groups[10]).toMatchObject({ colour: COMMUNITY_COLOURS[0], cssClass: "c0" });
  });

  test("by sector with no metadata: one grey group of all", () => {
    const c = colourGroups([stock("A", 0, null), { symbol: "B", community: 1, values: {} }], "sector");
    expect(c.groups).toEqual([{ name: "no sector", colour: NEUTRAL_COLOUR, cssClass: "cx", count: 2 }]);
  });
});

describe("sectorAgreementText", () => {
  const graph = { nodes: 3, edges: 2, method: "mst" };
  test("ARI and NMI to three places over the labelled count; none without the field or with nothing labelled", () => {
    expect(sectorAgreementText(graph)).toBeNull();
    expect(sectorAgreementText({ ...graph, sector_agreement: { ari: 0.61234, nmi: 0.7, labelled: 44 } })).toBe(
      "Sector agreement of the communities over 44 labelled stocks: ARI 0.612, NMI 0.700.",
    );
    expect(sectorAgreementText({ ...graph, sector_agreement: { ari: null, nmi: null, labelled: 1 } })).toBe(
      "Sector agreement of the communities over 1 labelled stock: ARI n/a, NMI n/a.",
    );
    expect(sectorAgreementText({ ...graph, sector_agreement: { ari: null, nmi: null, labelled: 0 } })).toBeNull();
  });
});
