/**
 * Sectors in live answers (docs/api.md § Sectors): without metadata every graph's sector_agreement
 * is null over 0 labelled stocks; after an import of the sample's sectors the same question is
 * answered afresh (the data version moved), each stock carries its name and sector, and the
 * snapshot's graph and each rolling as-of's graph (include_graph=all) carry the agreement of their
 * own communities with the sectors. The values are sectorAgreement's, which the golden test holds
 * to scikit-learn; here they are checked to be computed on the graph answered.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sectorAgreement } from "../../engine/sector-agreement.ts";
import { SAMPLE_SECTORS } from "../../market/index.ts";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ratePerMinute: "100", ratePerDay: "1000" });
});
afterAll(() => h.stop());

const sectorOf = new Map(SAMPLE_SECTORS.flatMap((s) => s.symbols.map((sym) => [sym, s.sector] as const)));
const SNAPSHOT = "/v1/graph-stats/chart?lookback=40&metrics=pagerank";

/** The agreement of `communities` (symbol → id) with the sample's sectors, only `labelled` of them known. */
function expected(communities: Record<string, number>, labelled: Set<string>) {
  const symbols = Object.keys(communities);
  return sectorAgreement(
    symbols.map((s) => communities[s]!),
    symbols.map((s) => (labelled.has(s) ? sectorOf.get(s)! : null)),
  );
}

describe("sector agreement on live answers", () => {
  test("without metadata: no name or sector on stocks, sector_agreement null over 0 labelled", async () => {
    const token = await h.token("before");
    const d = (await body(await h.handle(SNAPSHOT, { token }))).data;
    expect(d.graph.sector_agreement).toEqual({ ari: null, nmi: null, labelled: 0 });
    expect(d.stocks[0].sector).toBeUndefined();
    expect(d.stocks[0].name).toBeUndefined();
  });

  test("after import-metadata: stocks carry name and sector, the graph its agreement; cached answers do not outlive it", async () => {
    // All but the infra sector known, one name known: the unlabelled stocks are left out.
    const rows = SAMPLE_SECTORS.filter((s) => s.sector !== "infra").flatMap((s) =>
      s.symbols.map((symbol) => ({ symbol, name: symbol === "ALPHABANK" ? "Alpha Bank" : null, sector: s.sector, industry: null })),
    );
    const labelled = new Set(rows.map((r) => r.symbol));
    expect(await h.server.stores.market.importMetadata(rows, h.clock.now())).toBe(rows.length);
    const token = await h.token("after");
    const d = (await body(await h.handle(SNAPSHOT, { token }))).data;
    const alpha = d.stocks.find((s: { symbol: string }) => s.symbol === "ALPHABANK");
    expect(alpha).toMatchObject({ symbol: "ALPHABANK", name: "Alpha Bank", sector: "banks" });
    const cement = d.stocks.find((s: { symbol: string }) => s.symbol === "CEMENTA");
    expect(cement.sector).toBeUndefined();
    const agreement = d.graph.sector_agreement;
    expect(agreement.labelled).toBe(labelled.size);
    expect(agreement).toEqual(expected(d.graph.communities, labelled));
    // The sample is a sector factor model: its communities follow the sectors, far from chance.
    expect(agreement.ari).toBeGreaterThan(0.3);
    expect(agreement.nmi).toBeGreaterThan(0.5);
  });

  test("rolling with include_graph=all: every as-of's graph carries its own communities' agreement", async () => {
    const token = await h.token("rolling");
    const d = (await body(await h.handle("/v1/graph-stats/chart?lookback=40&periods=3&metrics=pagerank&include_graph=all", { token })))
      .data;
    expect(d.graphs.length).toBe(3);
    for (const g of d.graphs) {
      expect(g.sector_agreement.labelled).toBeGreaterThan(30);
      expect(g.sector_agreement.ari).toBeNumber();
    }
    expect(d.graphs[2].sector_agreement).toEqual(d.latest_graph.sector_agreement);
    expect(d.stocks[0].sector).toBe(sectorOf.get(d.stocks[0].symbol));
  });

  test("include_graph=false: no communities, so no sector_agreement; the stocks still carry their sectors", async () => {
    const token = await h.token("nograph");
    const d = (await body(await h.handle(`${SNAPSHOT}&include_graph=false`, { token }))).data;
    expect(d.graph).toEqual({ nodes: 50, edges: d.graph.edges, method: "mst" });
    expect(d.stocks.find((s: { symbol: string }) => s.symbol === "BETABANK").sector).toBe("banks");
  });
});
