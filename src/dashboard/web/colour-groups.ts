/**
 * What the network's colours stand for: its communities (the API's numbers) or the stocks'
 * sectors from `graph-stats import-metadata`. Sectors take the community palette in alphabetical
 * order, so a sector keeps its colour from answer to answer; stocks without a sector are grey.
 */
import type { GraphData, StockModel } from "./network-data.ts";
import { COMMUNITY_COLOURS, communityClass, communityColour, communityName } from "./palette.ts";

export type ColourBy = "community" | "sector";

/** The colour of stocks in no group (no community, no sector). */
export const NEUTRAL_COLOUR = "#8a8f98";

export interface ColourGroup {
  name: string;
  colour: string;
  /** The swatch's class in styles.css. */
  cssClass: string;
  count: number;
}

export interface Colouring {
  groups: ColourGroup[];
  /** Each stock's group (an index into `groups`), or undefined for none. */
  groupOf: Map<string, number>;
}

export function colourGroups(stocks: readonly StockModel[], by: ColourBy): Colouring {
  const groupOf = new Map<string, number>();
  if (by === "community") {
    const ids = [...new Set(stocks.map((s) => s.community).filter((c): c is number => c !== null))].sort((a, b) => a - b);
    const index = new Map(ids.map((c, i) => [c, i]));
    const groups = ids.map((c) => ({ name: communityName(c), colour: communityColour(c), cssClass: communityClass(c), count: 0 }));
    for (const s of stocks) {
      if (s.community === null) continue;
      const i = index.get(s.community)!;
      groups[i].count++;
      groupOf.set(s.symbol, i);
    }
    return { groups, groupOf };
  }
  const sectors = [...new Set(stocks.map((s) => s.sector ?? null).filter((x): x is string => x !== null))].sort();
  const index = new Map(sectors.map((x, i) => [x, i]));
  const groups: ColourGroup[] = sectors.map((x, i) => ({
    name: x,
    colour: COMMUNITY_COLOURS[i % COMMUNITY_COLOURS.length],
    cssClass: `c${i % COMMUNITY_COLOURS.length}`,
    count: 0,
  }));
  const unlabelled = stocks.filter((s) => !s.sector).length;
  if (unlabelled) groups.push({ name: "no sector", colour: NEUTRAL_COLOUR, cssClass: "cx", count: 0 });
  for (const s of stocks) {
    const i = s.sector ? index.get(s.sector)! : groups.length - 1;
    groups[i].count++;
    groupOf.set(s.symbol, i);
  }
  return { groups, groupOf };
}

/**
 * The agreement of the graph's communities with the sectors, as one sentence; null when the answer
 * has none or labels no stock (the demo, or no metadata imported: nothing to compare).
 */
export function sectorAgreementText(graph: GraphData): string | null {
  const a = graph.sector_agreement;
  if (!a || a.labelled === 0) return null;
  const f = (v: number | null) => (v === null ? "n/a" : v.toFixed(3));
  return `Sector agreement of the communities over ${a.labelled} labelled stock${a.labelled === 1 ? "" : "s"}: ARI ${f(a.ari)}, NMI ${f(a.nmi)}.`;
}

/** The chart's text alternative: what the colours are, each group and its size. */
export function colourLabel(c: Colouring, by: ColourBy): string {
  const list = c.groups.map((g) => `${g.name} ${g.count}`).join(", ");
  return `Correlation network: nodes coloured by ${by}${list ? ` (${list})` : ""}, sized by the chosen metric; the figures are in the table below`;
}
