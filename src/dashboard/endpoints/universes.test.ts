/**
 * The Data panel's reads (GET /dashboard/api/universes[/:name]): only for a signed-in session, and
 * the very catalogue the API serves, so an import or a metadata change shows at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startSignInServer, type SignInServer } from "../../../test/support/sign-in-server.ts";

let s: SignInServer;
let cookie: string;
beforeAll(async () => {
  s = await startSignInServer();
  cookie = (await s.signIn("dora")).cookie;
});
afterAll(() => s.stop());

const read = async (path: string, headers: Record<string, string> = { Cookie: cookie }) => {
  const res = await s.handle(path, { headers });
  return { res, body: (await res.json()) as any };
};

describe("the Data panel's reads", () => {
  test("without a live session: 401 in the envelope, nothing of the catalogue", async () => {
    for (const path of ["/dashboard/api/universes", "/dashboard/api/universes/sample"]) {
      for (const headers of [{}, { Cookie: `gs_session=${"A".repeat(43)}` }] as Record<string, string>[]) {
        const { res, body } = await read(path, headers);
        expect(res.status).toBe(401);
        expect(body.errors).toEqual([{ code: "UNAUTHORIZED", message: "not signed in, or the session expired; sign in again" }]);
        expect(body.data).toBeNull();
      }
    }
  });

  test("the list is the catalogue's, with each universe's newest bars and the server's clock", async () => {
    const market = s.server.stores.market;
    const version = await market.dataVersion();
    const catalogue = await market.catalogue(version);
    const { res, body } = await read("/dashboard/api/universes");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body.data).toEqual({ universes: catalogue.universes, last_bars: catalogue.lastBars, checked_at: s.clock.now() });
    expect(body.data.universes.map((u: { name: string }) => u.name)).toEqual(["sample"]);
    expect(body.data.last_bars).toContainEqual({ universe: "sample", interval: "1d", ts: expect.any(Number) });
  });

  test("an import and metadata show at once: the new universe listed, its members' names and sectors in its coverage", async () => {
    const market = s.server.stores.market;
    const csv = "timestamp,open,high,low,close,volume\n2026-11-16,1,1,1,1,1\n2026-11-17,2,2,2,2,1\n2026-11-18,3,3,3,3,1\n";
    await market.importCsvSources(
      [
        { file: "DESKA.csv", text: csv },
        { file: "DESKB.csv", text: csv.split("\n").slice(0, 3).join("\n") },
      ],
      { universe: "desk" },
    );
    await market.importMetadata([{ symbol: "DESKA", name: "Desk A Ltd", sector: "banks", industry: null }], s.clock.now());
    const list = (await read("/dashboard/api/universes")).body.data;
    expect(list.universes.map((u: { name: string }) => u.name)).toEqual(["desk", "sample"]);
    expect(list.universes[0]).toMatchObject({ name: "desk", symbols: 2, intervals: ["1d"], data_source: "imported" });
    const detail = (await read("/dashboard/api/universes/desk")).body.data;
    expect(detail).toEqual(JSON.parse(JSON.stringify(await market.universeDetail("desk", await market.dataVersion()))));
    expect(detail.symbols).toEqual([
      {
        symbol: "DESKA",
        name: "Desk A Ltd",
        sector: "banks",
        industry: null,
        coverage: { "1d": { first: "2026-11-16T00:00:00+00:00", last: "2026-11-18T00:00:00+00:00", bars: 3, missing: 0 } },
      },
      {
        symbol: "DESKB",
        name: null,
        sector: null,
        industry: null,
        coverage: { "1d": { first: "2026-11-16T00:00:00+00:00", last: "2026-11-17T00:00:00+00:00", bars: 2, missing: 0 } },
      },
    ]);
  });

  test("an unknown or impossible name: 404 NOT_FOUND", async () => {
    for (const name of ["zzz", "..%2F"]) {
      const { res, body } = await read(`/dashboard/api/universes/${name}`);
      expect(res.status).toBe(404);
      expect(body.errors[0].code).toBe("NOT_FOUND");
    }
  });
});
