/**
 * The query form and the charts in Debian's Chromium (#42 item 7): the form sends the API's own
 * parameter names and never a query the server would refuse; no select clips its text; the stock
 * picker shows whole rows; the dendrogram grows with its leaves; the weights chart is the ten
 * largest and the others; the Data panel lists the universes with their freshness and coverage, and
 * the network is coloured by sector (#44). Set GRAPH_STATS_SCREENSHOTS=<dir> to keep
 * docs/dashboard.md's pictures of the form's messages, the Data panel and the sector colours.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { SAMPLE_SECTORS } from "../../src/market/index.ts";
import { chromiumAvailable, sharedBrowser } from "../support/browser.ts";
import { type DashboardHarness, openDashboard, PROFILE, settled, signInByHttp, startDashboard } from "./harness.ts";

const SHOTS = process.env.GRAPH_STATS_SCREENSHOTS;
const WIDTHS = [1280, 375];

describe.skipIf(!chromiumAvailable())("the query form and the charts (#42 item 7)", () => {
  let h: DashboardHarness;
  let browser: Browser;

  beforeAll(async () => {
    h = await startDashboard();
    browser = await sharedBrowser();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  async function signedInPage(name: string) {
    const { context } = await signInByHttp(h, browser, name);
    h.clock.tick(61_000); // a free minute window for this user's first query
    return { context, ...(await openDashboard(h, context)) };
  }

  /** Clicks Run and returns the parameters the page sent and the server's answer. */
  async function run(page: Page): Promise<{ sent: Record<string, string>; answer: any }> {
    const request = page.waitForRequest((r) => r.url().endsWith("/dashboard/api/query"));
    const response = page.waitForResponse((r) => r.url().endsWith("/dashboard/api/query"));
    await page.getByRole("button", { name: /Run my query/ }).click();
    const sent = (await request).postDataJSON().params;
    const answer = await (await response).json();
    await settled(
      async () => (await page.locator("#network-source").textContent()) ?? "",
      (t) => t.startsWith("Your query"),
    );
    return { sent, answer };
  }

  const graphCaption = async (page: Page) => (await page.locator("#graph-caption").textContent()) ?? "";

  test("the form sends corr_method, asof, knn_k, market_mode and shrinkage by the API's names, and the answer follows them", async () => {
    const { context, page, cspErrors } = await signedInPage("nina");
    const k = page.getByLabel("Neighbours k");
    expect(await k.isDisabled()).toBe(true); // only for k nearest neighbours
    await page.getByLabel("Graph method").selectOption("knn");
    expect(await k.isDisabled()).toBe(false);
    await k.fill("3");
    await page.getByLabel("Correlation", { exact: true }).selectOption("spearman");
    await page.getByLabel("Market factor").selectOption("remove");
    await page.getByLabel("As of").fill("2025-06-13");
    await page.getByLabel("Periods").fill("1");
    const first = await run(page);
    expect(first.sent).toMatchObject({
      graph_method: "knn",
      knn_k: "3",
      corr_method: "spearman",
      market_mode: "remove",
      shrinkage: "none",
      asof: "2025-06-13",
    });
    expect(first.answer.meta.params).toMatchObject({
      graph_method: "knn",
      knn_k: 3,
      corr_method: "spearman",
      market_mode: "remove",
      shrinkage: "none",
    });
    expect(first.answer.data.asof_date.slice(0, 10)).toBe("2025-06-13"); // a Friday: the bar of that day
    expect(await graphCaption(page)).toMatch(/^As of 2025-06-13 · 50 stocks, \d+ edges \(k nearest neighbours\)/);

    // Ledoit–Wolf with Pearson; k is not sent once the method is not knn.
    h.clock.tick(61_000);
    await page.getByLabel("Graph method").selectOption("mst");
    await page.getByLabel("Correlation", { exact: true }).selectOption("pearson");
    await page.getByLabel("Shrinkage").selectOption("ledoit_wolf");
    const second = await run(page);
    expect(second.sent).toMatchObject({ graph_method: "mst", corr_method: "pearson", shrinkage: "ledoit_wolf", market_mode: "remove" });
    expect(second.sent.knn_k).toBeUndefined();
    expect(second.answer.meta.params).toMatchObject({ shrinkage: "ledoit_wolf", corr_method: "pearson", market_mode: "remove" });
    expect(await graphCaption(page)).toMatch(/^As of 2025-06-13 · 50 stocks, 49 edges \(minimum spanning tree\)/);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  test("a query the server would refuse is not sent: each field says what to change", async () => {
    const { context, page, cspErrors } = await signedInPage("oscar");
    const sent: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/dashboard/api/query")) sent.push(r.postData() ?? "");
    });
    await page.getByLabel("Lookback (bars)").fill("5000");
    await page.getByLabel("Graph method").selectOption("knn");
    await page.getByLabel("Neighbours k").fill("51");
    await page.getByLabel("Correlation", { exact: true }).selectOption("kendall");
    await page.getByLabel("Shrinkage").selectOption("ledoit_wolf");
    await page.getByLabel("Clusters").fill("3");
    await page.getByLabel("Symbols").fill("ALPHABANK, ALPHABANK");
    await page.getByRole("button", { name: /Run my query/ }).click();
    const errors = {
      "q-lookback": "Lookback: a whole number from 2 to 1000.",
      "q-knn-k": "Neighbours k: a whole number from 1 to 50.",
      "q-shrinkage": "Shrinkage: Ledoit–Wolf needs Pearson correlation",
      "q-clusters": "Clusters cut a hierarchy",
      "q-symbols": "Symbols: 'ALPHABANK' listed more than once.",
    };
    for (const [id, text] of Object.entries(errors)) {
      expect(await page.locator(`#${id}-error`).textContent()).toContain(text);
      expect(await page.locator(`#${id}`).getAttribute("aria-invalid")).toBe("true");
      expect((await page.locator(`#${id}`).getAttribute("aria-describedby"))?.split(" ")).toContain(`${id}-error`);
    }
    expect(
      await settled(
        async () => (await page.locator("#query-error").textContent()) ?? "",
        (t) => t !== "",
      ),
    ).toBe("The server would refuse this query: 5 fields need a change.");
    expect(await page.locator("#q-lookback").evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // Mended field by field: each message goes as its field is put right, and the query is sent.
    await page.getByLabel("Lookback (bars)").fill("60");
    expect(await page.locator("#q-lookback-error").isHidden()).toBe(true);
    expect(await page.locator("#q-lookback").getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel("Neighbours k").fill("5");
    await page.getByLabel("Shrinkage").selectOption("none");
    await page.getByLabel("Hierarchy").selectOption("average");
    await page.getByLabel("Symbols").fill("ALPHABANK, BETABANK, CODEWAVE");
    expect(await page.locator(".field-error:not([hidden])").count()).toBe(0);
    expect(sent).toEqual([]);
    if (SHOTS) {
      await page.getByLabel("Lookback (bars)").fill("1");
      await page.getByLabel("Shrinkage").selectOption("ledoit_wolf");
      await page.getByRole("button", { name: /Run my query/ }).click();
      mkdirSync(SHOTS, { recursive: true });
      // The form with the card's margin round it, all in one (tall) window.
      await page.setViewportSize({ width: 1280, height: 1400 });
      await page.locator("#query-form").scrollIntoViewIfNeeded();
      const form = (await page.locator("#query-form").boundingBox())!;
      await page.screenshot({
        path: join(SHOTS, "8-query-form-messages.png"),
        clip: { x: form.x - 16, y: form.y - 8, width: form.width + 32, height: form.height + 24 },
      });
      await page.setViewportSize(PROFILE.viewport);
      await page.getByLabel("Lookback (bars)").fill("60");
      await page.getByLabel("Shrinkage").selectOption("none");
    }
    const { sent: params } = await run(page);
    expect(params).toMatchObject({
      symbols: "ALPHABANK,BETABANK,CODEWAVE",
      knn_k: "5",
      corr_method: "kendall",
      hierarchy: "average",
      clusters: "3",
    });
    expect(sent.length).toBe(1);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  test("no select clips its text, nor the page its width, at 1280 and 375 px", async () => {
    const { context, page } = await signedInPage("pia");
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      // A <select> reports no overflow (its scrollWidth is its clientWidth), so each is compared
      // with a copy of itself holding one option at its natural width: the width that option's text needs.
      const clipped = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        const out: string[] = [];
        for (const select of doc.querySelectorAll("select")) {
          for (const option of select.options) {
            const copy = select.cloneNode(false);
            copy.append(option.cloneNode(true));
            copy.style.width = "auto";
            copy.style.minWidth = "0";
            copy.style.maxWidth = "none";
            copy.style.position = "absolute";
            copy.style.visibility = "hidden";
            select.parentElement.append(copy);
            const need = copy.getBoundingClientRect().width;
            copy.remove();
            const have = select.getBoundingClientRect().width;
            if (need > have + 0.5) out.push(`${select.id} "${option.text}": ${need.toFixed(1)} px in ${have.toFixed(1)}`);
          }
        }
        return { out, page: doc.documentElement.scrollWidth as number };
      });
      expect(clipped.out, `at ${width} px`).toEqual([]);
      expect(clipped.page).toBeLessThanOrEqual(width);
    }
    await context.close();
  });

  test("the stock picker shows whole rows, and its last row whole at the end, at 1280 and 375 px", async () => {
    const page = await browser.newPage(PROFILE);
    try {
      await page.goto(`${h.base}/dashboard`);
      await settled(
        () => page.locator("#stock-options .chip").count(),
        (n) => n === 50,
      );
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const end of [false, true]) {
          const cut = await page.evaluate((end) => {
            const box = (globalThis as any).document.getElementById("stock-options");
            box.scrollTop = end ? box.scrollHeight : 0;
            const r = box.getBoundingClientRect();
            const top = r.top + box.clientTop;
            const bottom = top + box.clientHeight;
            const chips = [...box.querySelectorAll(".chip")].map((c: any) => c.getBoundingClientRect());
            return {
              scrolls: box.scrollHeight > box.clientHeight,
              // A chip seen in part: some of it in the box and some outside.
              partly: chips.filter(
                (c: any) => c.bottom > top + 0.5 && c.top < bottom - 0.5 && (c.top < top - 0.5 || c.bottom > bottom + 0.5),
              ).length,
              lastInside: chips.at(-1)!.bottom <= bottom + 0.5,
            };
          }, end);
          expect(cut.scrolls).toBe(true); // 50 stocks are more than five rows
          expect(cut.partly, `${width} px, scrolled to the ${end ? "end" : "start"}`).toBe(0);
          if (end) expect(cut.lastInside).toBe(true);
        }
      }
    } finally {
      await page.close();
    }
  });

  test("the dendrogram's height grows with its leaves, a row each", async () => {
    const { context, page, cspErrors } = await signedInPage("quinn");
    const height = async () => (await page.locator("#dendrogram-chart").boundingBox())?.height ?? 0;
    await page.getByLabel("Symbols").fill("ALPHABANK, BETABANK, GAMMABANK, CODEWAVE, BYTEFORGE, SUNVOLT");
    await page.getByLabel("Hierarchy").selectOption("average");
    await run(page);
    await page.locator("#dendrogram-panel").waitFor({ state: "visible" });
    const six = await settled(height, (v) => v > 0);
    h.clock.tick(61_000);
    await page.getByLabel("Symbols").fill("");
    await run(page);
    const fifty = await settled(height, (v) => v > six);
    expect(six).toBe(240);
    expect(fifty).toBeGreaterThanOrEqual(50 * 16);
    expect(fifty - six).toBeGreaterThanOrEqual(44 * 16 - 240);
    // The canvas is the box's size, and the graph beside it is as tall as its row.
    expect((await page.locator("#dendrogram-chart canvas").first().boundingBox())?.height).toBeCloseTo(fifty, 0);
    const graph = (await page.locator("#graph-chart").boundingBox())?.height ?? 0;
    expect(graph).toBeGreaterThan(fifty - 100);
    expect(cspErrors).toEqual([]);
    await context.close();
  });

  test("the HRP chart is ten bars and the others, whose tooltip lists all forty", async () => {
    const { context, page, cspErrors } = await signedInPage("ravi");
    await page.getByLabel("Weights").selectOption("hrp");
    await page.getByLabel("Periods").fill("5");
    await run(page);
    await page.locator("#weights-panel").waitFor({ state: "visible" });
    const label = (await page.locator("#weights-chart").getAttribute("aria-label")) ?? "";
    expect(label).toStartWith("Bar chart. The 10 largest portfolio weights and the other 40 stocks together: ");
    const bars = label.slice(label.indexOf(": ") + 2, -1).split(", ");
    expect(bars.length).toBe(11);
    expect(bars[10]).toMatch(/^Others \(40\) \d+\.\d%$/);
    expect(await page.locator("#weights-table tbody tr").count()).toBe(50);
    // Hover the bottom band (the others): its tooltip names the forty.
    await page.locator("#weights-chart").scrollIntoViewIfNeeded();
    const box = (await page.locator("#weights-chart").boundingBox())!;
    const top = 28; // the grid's top (weights-option.ts), under the legend
    const band = (box.height - top - 4 - 20) / 11; // less the x axis labels
    await page.mouse.move(box.x + box.width / 2, box.y + top + band * 10.5);
    const tip = page.locator("#weights-chart .gs-tooltip");
    await tip.waitFor({ state: "visible" });
    expect(await tip.locator(".tt-title").textContent()).toBe("Others (40)");
    expect(await tip.locator(".tt-grid .swatch").count()).toBe(40);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
  test("the Data panel lists the universes, marks the stale one and shows coverage; the network colours by sector (#44)", async () => {
    // A universe whose newest daily bar is six days old (stale past 4), DESKB missing a day, and
    // sectors for the sample but its infra stocks, names for the desk.
    const market = h.server.stores.market;
    const day = (back: number) => new Date(h.clock.now() - back * 86_400_000).toISOString().slice(0, 10);
    const dates = [10, 9, 8, 7, 6].map(day);
    const csv = (ds: string[]) =>
      `timestamp,open,high,low,close,volume\n${ds.map((d, i) => `${d},${10 + i},${10 + i},${10 + i},${10 + i},1`).join("\n")}\n`;
    await market.importCsvSources(
      [
        { file: "DESKA.csv", text: csv(dates) },
        { file: "DESKB.csv", text: csv(dates.filter((_, i) => i !== 2)) },
      ],
      { universe: "desk" },
    );
    const rows = [
      { symbol: "DESKA", name: "Desk A Ltd", sector: "banks", industry: null },
      ...SAMPLE_SECTORS.filter((x) => x.sector !== "infra").flatMap((x) =>
        x.symbols.map((symbol) => ({ symbol, name: null, sector: x.sector, industry: null })),
      ),
    ];
    await market.importMetadata(rows, h.clock.now());

    const { context, page, cspErrors } = await signedInPage("sana");
    const universes = page.locator("#data-universes tbody tr");
    await settled(
      () => universes.count(),
      (n) => n === 2,
    );
    const desk = page.locator('#data-universes tr[data-universe="desk"]');
    expect(await desk.locator("td").allTextContents()).toEqual([
      "2",
      "1d",
      dates[0],
      dates[4],
      "imported",
      String(await market.dataVersion()),
      expect.stringMatching(/^Stale: newest 1d bar 6\.\d days old$/),
    ]);
    expect(await desk.locator(".freshness.stale").count()).toBe(1);
    expect(await page.locator('#data-universes tr[data-universe="sample"] .freshness').textContent()).toStartWith(
      "Sample data, not refreshed",
    );
    // The first universe's coverage at once; another on choosing it.
    await settled(
      async () => (await page.locator("#data-coverage caption").textContent()) ?? "",
      (t) => t.startsWith("Coverage of desk"),
    );
    expect(await page.locator('#data-coverage tr[data-symbol="DESKA"]').locator("th, td").allTextContents()).toEqual([
      "DESKA",
      "Desk A Ltd",
      "banks",
      "1d",
      dates[0],
      dates[4],
      "5",
      "0",
    ]);
    expect(await page.locator('#data-coverage tr[data-symbol="DESKB"] td').allTextContents()).toEqual([
      "—",
      "—",
      "1d",
      dates[0],
      dates[4],
      "4",
      "1",
    ]);
    expect(await page.locator('#data-coverage tr[data-symbol="DESKB"] td.missing').textContent()).toBe("1");
    expect(await page.locator("#data-calendar").textContent()).toBe(`Calendar of desk: 1d: 5 bars, ${dates[0]} to ${dates[4]}.`);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.locator("#data").screenshot({ path: join(SHOTS, "9-data-panel.png") });
    }
    await page.getByLabel("Coverage of").selectOption("sample");
    await settled(
      () => page.locator("#data-coverage tbody tr").count(),
      (n) => n === 100,
    ); // 50 symbols at 1m and 1d
    expect(await page.locator('#data-coverage tr[data-symbol="CEMENTA"] td').first().textContent()).toBe("—"); // infra: no metadata

    // The user's own query carries the sectors; colouring by them draws the grey of the unlabelled.
    const { answer } = await run(page);
    const grey = () =>
      page
        .locator("#graph-chart canvas")
        .first()
        .evaluate((c: any) => {
          const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] === 0x8a && data[i + 1] === 0x8f && data[i + 2] === 0x98) n++;
          return n;
        });
    expect(await grey()).toBe(0); // every stock is in a community
    await page.getByLabel("Colour by").selectOption("sector");
    const label = await settled(
      async () => (await page.locator("#graph-chart").getAttribute("aria-label")) ?? "",
      (t) => t.includes("coloured by sector"),
    );
    const counts = new Map<string, number>();
    for (const s of answer.data.stocks as { sector?: string }[]) counts.set(s.sector ?? "", (counts.get(s.sector ?? "") ?? 0) + 1);
    expect(counts.get("")).toBe(6);
    const listed = [...counts]
      .filter(([x]) => x)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([x, n]) => `${x} ${n}`);
    expect(label).toStartWith(`Correlation network: nodes coloured by sector (${[...listed, "no sector 6"].join(", ")}), sized`);
    expect(await settled(grey, (n) => n > 0)).toBeGreaterThan(6 * 20); // six grey nodes and the legend's icon
    const a = (answer.data.graph ?? answer.data.latest_graph).sector_agreement; // a rolling answer draws its latest graph
    expect(a.labelled).toBe(44);
    expect(await page.locator("#sector-agreement").textContent()).toBe(
      `Sector agreement of the communities over 44 labelled stocks: ARI ${a.ari.toFixed(3)}, NMI ${a.nmi.toFixed(3)}.`,
    );
    expect(await page.locator("#network-table thead th").nth(2).textContent()).toBe("Sector");
    if (SHOTS) await page.locator(".panel-graph").screenshot({ path: join(SHOTS, "10-network-by-sector.png") });
    await page.getByLabel("Colour by").selectOption("community");
    expect(await settled(grey, (n) => n === 0)).toBe(0);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
