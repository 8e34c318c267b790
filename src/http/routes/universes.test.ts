/**
 * GET /v1/universes and /v1/universes/{name} through the real app over a real SQLite file holding
 * the sample (docs/api.md § GET /v1/universes and GET /v1/universes/{name}): the live endpoint's 401s and 403, nothing metered, the
 * shapes, coverage and missing bars against the universe's calendar, ETag / If-None-Match, 404.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sqliteAuthStoreOf } from "../../auth/index.ts";
import { SAMPLE_LATE_LISTING } from "../../market/index.ts";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const days = ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"];
const csv = (dates: string[], close = 10) =>
  `timestamp,open,high,low,close,volume\n${dates.map((d, i) => `${d},${close + i},${close + i},${close + i},${close + i},1`).join("\n")}\n`;

describe("authentication: the live endpoint's verification", () => {
  test("no token, a bad token: 401 with the same messages and challenge", async () => {
    for (const path of ["/v1/universes", "/v1/universes/sample"]) {
      const none = await h.handle(path);
      expect(none.status).toBe(401);
      expect((await body(none)).errors).toEqual([{ code: "UNAUTHORIZED", message: "missing bearer token" }]);
      expect(none.headers.get("www-authenticate")).toBe('Bearer realm="graph-stats"');
      const bad = await h.handle(path, { token: "not-a-jwt" });
      expect(bad.status).toBe(401);
      expect((await body(bad)).errors[0].message).toBe("malformed token");
    }
  });
  test("a disabled user's valid token: 403 FORBIDDEN", async () => {
    const auth = sqliteAuthStoreOf(h.server.opened.sqlite);
    await auth.createUser({ id: "dis", now: h.clock.now() });
    await auth.setDisabled("dis", true);
    const res = await h.handle("/v1/universes", { token: await h.token("dis") });
    expect(res.status).toBe(403);
    expect((await body(res)).errors[0].code).toBe("FORBIDDEN");
  });
});

describe("the list", () => {
  test("the sample's entry, in the envelope, without rate-limit headers", async () => {
    const res = await h.handle("/v1/universes", { token: await h.token("lister") });
    expect(res.status).toBe(200);
    const b = await body(res);
    expect(b.success).toBe(true);
    expect(b.meta.request_id).toBe(res.headers.get("x-request-id"));
    const version = b.data.universes[0].data_version;
    expect(b.data.universes).toEqual([
      {
        name: "sample",
        symbols: 50,
        intervals: ["1m", "1d"],
        first_bar: "2022-01-03T00:00:00+05:30",
        last_bar: "2025-09-30T15:29:00+05:30",
        data_source: "synthetic",
        data_version: version,
      },
    ]);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(res.headers.get("etag")).toBe(`W/"dv${version}"`);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
  });
  test("not metered: many list and show calls leave the caller's one request a minute unused", async () => {
    const token = await h.token("unmetered");
    for (let i = 0; i < 5; i++) {
      expect((await h.handle("/v1/universes", { token })).status).toBe(200);
      expect((await h.handle("/v1/universes/sample", { token })).status).toBe(200);
    }
    const live = await h.handle("/v1/graph-stats/chart?lookback=20&include_graph=false", { token });
    expect(live.status).toBe(200);
    expect(live.headers.get("x-ratelimit-remaining")).toBe("0");
  });
  test("If-None-Match with the ETag: 304, no body; another tag or a new data version: 200", async () => {
    const token = await h.token("etag");
    const first = await h.handle("/v1/universes", { token });
    const etag = first.headers.get("etag")!;
    const again = await h.handle("/v1/universes", { token, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect((await h.handle("/v1/universes", { token, headers: { "If-None-Match": `"other", ${etag.slice(2)}` } })).status).toBe(304);
    expect((await h.handle("/v1/universes", { token, headers: { "If-None-Match": '"other"' } })).status).toBe(200);
    await h.server.stores.market.importCsvSources([{ file: "ETAGA.csv", text: csv(days) }], { universe: "etagged" });
    const moved = await h.handle("/v1/universes", { token, headers: { "If-None-Match": etag } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get("etag")).not.toBe(etag);
    expect((await body(moved)).data.universes.map((u: { name: string }) => u.name)).toContain("etagged");
  });
  test("parameters are refused: 400 naming them", async () => {
    const res = await h.handle("/v1/universes?name=sample&x=1", { token: await h.token("params") });
    expect(res.status).toBe(400);
    expect((await body(res)).errors[0]).toEqual({ code: "BAD_REQUEST", message: "/v1/universes takes no parameters; received: name, x" });
  });
});

describe("one universe", () => {
  test("the sample: every member with coverage per interval, the late listing missing nothing", async () => {
    const res = await h.handle("/v1/universes/sample", { token: await h.token("shower") });
    expect(res.status).toBe(200);
    const d = (await body(res)).data;
    expect(d.name).toBe("sample");
    expect(d.intervals).toEqual(["1m", "1d"]);
    expect(d.data_source).toBe("synthetic");
    expect(d.symbols.length).toBe(50);
    expect(d.calendar["1m"].bars).toBe(10 * 375);
    const late = d.symbols.find((s: { symbol: string }) => s.symbol === SAMPLE_LATE_LISTING.symbol);
    expect(late.coverage["1d"].first).toBe(`${SAMPLE_LATE_LISTING.date}T00:00:00+05:30`);
    expect(late.coverage["1d"].missing).toBe(0);
    const first = d.symbols[0];
    expect(first).toEqual({
      symbol: first.symbol,
      name: null,
      sector: null,
      industry: null,
      coverage: {
        "1m": { first: "2025-09-17T09:15:00+05:30", last: "2025-09-30T15:29:00+05:30", bars: 3750, missing: 0 },
        "1d": { first: "2022-01-03T00:00:00+05:30", last: "2025-09-30T00:00:00+05:30", bars: d.calendar["1d"].bars, missing: 0 },
      },
    });
  });
  test("missing bars are the universe calendar's bars between a member's first and last that it lacks", async () => {
    await h.server.stores.market.importCsvSources(
      [
        { file: "GAPA.csv", text: csv(days) },
        { file: "GAPB.csv", text: csv([days[0]!, days[1]!, days[3]!]) },
        { file: "GAPC.csv", text: csv(days.slice(2)) },
      ],
      { universe: "gappy" },
    );
    const d = (await body(await h.handle("/v1/universes/gappy", { token: await h.token("gaps") }))).data;
    expect(d.calendar).toEqual({ "1d": { first: "2024-01-01T00:00:00+00:00", last: "2024-01-05T00:00:00+00:00", bars: 5 } });
    expect(d.symbols.map((s: any) => [s.symbol, s.coverage["1d"].bars, s.coverage["1d"].missing])).toEqual([
      ["GAPA", 5, 0],
      ["GAPB", 3, 1],
      ["GAPC", 3, 0],
    ]);
    expect(d.symbols[1].coverage["1d"].last).toBe("2024-01-04T00:00:00+00:00");
  });
  test("an unknown or impossible name: 404 NOT_FOUND naming the known universes", async () => {
    const token = await h.token("unknown");
    for (const name of ["zzz", "a%20b"]) {
      const res = await h.handle(`/v1/universes/${name}`, { token });
      expect(res.status).toBe(404);
      const e = (await body(res)).errors[0];
      expect(e.code).toBe("NOT_FOUND");
      expect(e.message).toStartWith(`unknown universe '${decodeURIComponent(name)}'; known universes: `);
      expect(e.message).toContain("sample");
    }
  });
  test("other methods: 405 with Allow: GET", async () => {
    const res = await h.handle("/v1/universes/sample", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
  });
});

describe("symbols shared with another universe", () => {
  test("an interval only a shared member stores: the 404 names this universe's members that lack it", async () => {
    const minutes = `timestamp,open,high,low,close,volume\n${Array.from({ length: 20 }, (_, i) => `2024-01-05T10:${String(i).padStart(2, "0")}:00+00:00,5,9,4,${5 + (i % 3)},1`).join("\n")}\n`;
    const market = h.server.stores.market;
    expect(
      (await market.importCsvSources([{ file: "SHA.csv", text: minutes }], { universe: "minutes", interval: "1m" })).filesRejected,
    ).toBe(0);
    await market.importCsvSources(
      [
        { file: "SHA.csv", text: csv(days) },
        { file: "SHB.csv", text: csv(days, 20) },
        { file: "SHC.csv", text: csv(days, 30) },
      ],
      { universe: "shared" },
    );
    const res = await h.handle("/v1/graph-stats/chart?universe=shared&interval=1m&lookback=5", { token: await h.token("shared") });
    expect(res.status).toBe(404);
    const message = (await body(res)).errors[0].message as string;
    expect(message).toStartWith("only 1 of 3 symbols can be used");
    expect(message).toContain("; 2 of 3 symbols store no 1m bars: SHB, SHC (they store 1d only)");
  });
});
