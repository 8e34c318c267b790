/**
 * Audit finding: the synthetic sample must be labelled synthetic in `meta.diagnostics.data_source`
 * (docs/api.md § The answer) however it is asked for — by universe name or by listing its symbols.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { body, startHarness, tempDbPath, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  // A fresh database file: the server creates it and loads the synthetic sample, as on a first install.
  h = await startHarness({ sample: true, defaultUniverse: "sample", ratePerMinute: 100 }, { dbPath: tempDbPath() });
});
afterAll(() => h.stop());

describe("data_source labels the synthetic sample", () => {
  test("universe=sample is labelled synthetic", async () => {
    const token = await h.token("ds-universe");
    const res = await h.get("/v1/graph-stats/chart?lookback=20&include_graph=false", { token });
    expect(res.status).toBe(200);
    expect((await body(res)).meta.diagnostics.data_source).toBe("synthetic");
  });

  test("symbols= listing sample symbols is labelled synthetic too, not 'imported'", async () => {
    const token = await h.token("ds-symbols");
    const res = await h.get("/v1/graph-stats/chart?lookback=20&include_graph=false&symbols=ALPHABANK,BETABANK,CODEWAVE", { token });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.data.stocks.map((s: { symbol: string }) => s.symbol)).toEqual(["ALPHABANK", "BETABANK", "CODEWAVE"]);
    expect(b.meta.diagnostics.data_source).toBe("synthetic");
  });
});
