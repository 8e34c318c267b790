/**
 * docs/api.md § Refused before metering: everything the data can refuse is decided before
 * admission, from metadata, with no computation started; after admission only server faults are
 * refunded (issue 12, item 1).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChartError } from "../../engine/types.ts";
import type { ChartService } from "../../compute/chart-service.ts";
import { requestCost } from "../../compute/request-cost.ts";
import { parseChartParams } from "../params/params.ts";
import { openDatabase } from "../../../db/sqlite/open.ts";
import { importCsvSources } from "../../market/index.ts";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ costBudget: "300" });
});
afterAll(() => h.stop());

const LIVE = "/v1/graph-stats/chart";
const params = (q: string) => {
  const p = parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
  if (!p.ok) throw new Error(p.errors.join("; "));
  return p.params;
};
/** Over a 300 ms budget on the sample's 50 symbols. */
const COSTLY = "graph_method=complete&corr_method=spearman&lookback=500&periods=100&include_graph=false";
/** The request's audit row; a refusal's is queued and written just after the answer (issue #12 item 7). */
async function counted(requestId: string) {
  const row = () => h.server.opened.sqlite.query("SELECT status, counted FROM request_log WHERE request_id = ?").get(requestId);
  for (let i = 0; i < 40 && row() === null; i++) await Bun.sleep(50);
  return row();
}

/** Sends the query, expects `status`, and asserts no computation started and the minute slot is still free. */
async function refusedBeforeAdmission(user: string, query: string, status: number, message: RegExp) {
  const token = await h.token(user);
  const before = h.server.compute.started();
  const res = await h.get(`${LIVE}?${query}`, { token, headers: { "X-Request-Id": `${user}-r` } });
  const b = await body(res);
  expect({ status: res.status, message: b.errors[0]?.message }).toMatchObject({ status, message: expect.stringMatching(message) });
  expect(h.server.compute.started()).toBe(before);
  expect(res.headers.get("x-ratelimit-remaining")).toBe("1");
  expect(await counted(`${user}-r`)).toEqual({ status, counted: 0 });
}

describe("refused before admission, without computing", () => {
  test("too much history (lookback=1000&periods=250): 400 naming the bars that exist; 30 of them start no computation", async () => {
    await refusedBeforeAdmission(
      "hist",
      "lookback=1000&periods=250",
      400,
      /needs 1250 bars up to 2025-09-30 but only \d+ exist at interval 1d/,
    );
    const token = await h.token("hist-many");
    const before = h.server.compute.started();
    for (let i = 0; i < 30; i++) {
      const res = await h.get(`${LIVE}?lookback=1000&periods=250&step=${1 + (i % 3)}`, { token });
      expect(res.status).toBe(400);
    }
    expect(h.server.compute.started()).toBe(before);
    expect((await h.get(`${LIVE}?lookback=20`, { token })).status).toBe(200);
  });

  test("shuffled symbols and minute bars: still refused from metadata", async () => {
    const syms = "SUNVOLT,ALPHABANK,CODEWAVE,MEDIVA,MOTORIA";
    await refusedBeforeAdmission(
      "shuffle",
      `symbols=${syms}&interval=1m&lookback=1000&periods=250&step=20`,
      400,
      /bars up to .* exist at interval 1m/,
    );
  });

  test("a date range that starts before lookback bars exist", async () => {
    await refusedBeforeAdmission("range", "start=2022-01-10&end=2022-06-30&lookback=250", 400, /lookback=250 needs 250; start on or after/);
  });

  test("an as-of before the first bar", async () => {
    await refusedBeforeAdmission("early", "asof=2001-01-01", 400, /is before the first bar/);
  });

  test("the response-size cap counts the edges returned (include_graph=all, complete)", async () => {
    await refusedBeforeAdmission(
      "edges",
      "graph_method=complete&include_graph=all&periods=40&lookback=20",
      400,
      /2000 points plus 49000 edge rows/,
    );
  });

  test("the response-size cap counts every dendrogram's merges returned with hierarchy (include_graph=all)", async () => {
    // 38 × 50 points + 38 × 1225 edges fit in 50,000 rows; 38 × 49 merges more do not.
    await refusedBeforeAdmission(
      "merges",
      "graph_method=complete&include_graph=all&periods=38&lookback=20&hierarchy=single",
      400,
      /1900 points plus 46550 edge rows plus 1862 hierarchy merges .*or hierarchy=none$/,
    );
  });

  test("the response-size cap counts every as-of's correlation matrix cells with include_corr (include_graph=all)", async () => {
    // 19 as-ofs of 50 points, 49 mst edges and 2500 cells fit in 50,000 rows; a 20th does not.
    const q = "graph_method=mst&include_graph=all&include_corr=true&lookback=20&metrics=degree_strength";
    const fits = await h.get(`${LIVE}?${q}&periods=19`, { token: await h.token("cells-fit") });
    expect(fits.status).toBe(200);
    await refusedBeforeAdmission(
      "cells",
      `${q}&periods=20`,
      400,
      /1000 points plus 980 edge rows plus 50000 correlation matrix cells .*include_corr=false/,
    );
  });

  test("a window no two symbols fill: the engine's 404, decided from metadata", async () => {
    // NOVAGRID lists on 2024-03-01; before that it has no bars, and the other symbol alone cannot make a graph.
    await refusedBeforeAdmission("late", "symbols=NOVAGRID,ALPHABANK&asof=2024-03-10&lookback=20", 404, /only 1 of 2 symbols can be used/);
  });

  test("over the cost budget: 400 naming the cost and the budget", async () => {
    await refusedBeforeAdmission(
      "costly",
      COSTLY,
      400,
      new RegExp(`estimated cost ${requestCost(params(COSTLY), 50, 100)} exceeds the budget of 300 \\(milliseconds of one core`),
    );
  });
});

describe("symbols whose daily bars are at different UTC offsets", () => {
  test("the 404 says their dates do not line up, naming the offsets, and how to fix it (#23 item 12)", async () => {
    const days = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10));
    const csv = (drift: number) =>
      `timestamp,open,high,low,close,volume\n${days.map((d, i) => `${d},10,11,9,${(10 + Math.sin(i * drift)).toFixed(4)},1`).join("\n")}\n`;
    const writer = openDatabase(h.config.db);
    try {
      importCsvSources(writer, [{ file: "UTCCO.csv", text: csv(0.7) }], { universe: "mixed" });
      importCsvSources(writer, [{ file: "ISTCO.csv", text: csv(1.3) }], { universe: "mixed", defaultOffsetMin: 330 });
    } finally {
      writer.sqlite.close();
    }
    const res = await h.get(`${LIVE}?symbols=UTCCO,ISTCO&lookback=20`, { token: await h.token("mixer") });
    expect(res.status).toBe(404);
    const message = (await body(res)).errors[0].message as string;
    expect(message).toContain("these symbols' bars are at different UTC offsets (+00:00 for UTCCO; +05:30 for ISTCO)");
    expect(message).toContain("re-import them at one offset (import --default-offset … --replace)");
  });
});

describe("after admission", () => {
  test("a data refusal after admission is not refunded; only server faults are", async () => {
    const refusing = await startHarness(
      {},
      {
        dbPath: h.config.db,
        override: {
          chart: {
            prepare: (p: unknown) => ({ params: p, dataVersion: 0, symbols: [], missing: [], dataSource: "x", cost: 1 }),
            reserve: () => ({ release: () => {} }),
            compute: () => Promise.reject(new ChartError("no-usable-symbols", "constant prices")),
          } as unknown as ChartService,
        },
      },
    );
    try {
      const token = await refusing.token("charged");
      const res = await refusing.get(`${LIVE}?lookback=20`, { token, headers: { "X-Request-Id": "charged-1" } });
      expect(res.status).toBe(404);
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refusing.server.opened.sqlite.query("SELECT status, counted FROM request_log WHERE request_id = 'charged-1'").get()).toEqual({
        status: 404,
        counted: 1,
      });
    } finally {
      await refusing.stop();
    }
  });
});
