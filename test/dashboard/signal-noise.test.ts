/**
 * The signal-or-noise views in Debian's Chromium: a bootstrap + spectrum query from the form
 * draws the eigenvalue spectrum against λ₊ (a chosen as-of's with include_graph=all), the
 * network's edges by reliability, and each stock's p05–p95 band on the rolling chart. What is
 * drawn is read from the canvases' pixels (colours, and the edges' alpha) and the charts' text
 * alternatives. Set GRAPH_STATS_SCREENSHOTS=<dir> to keep docs/dashboard.md's picture of it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { reliabilityOpacity } from "../../src/dashboard/web/graph-option.ts";
import { lineColour } from "../../src/dashboard/web/palette.ts";
import { BAND_OPACITY } from "../../src/dashboard/web/rolling-option.ts";
import { EDGE_COLOUR, NOISE_COLOUR, SIGNAL_COLOUR } from "../../src/dashboard/web/spectrum-option.ts";
import { chromiumAvailable, sharedBrowser } from "../support/browser.ts";
import { type DashboardHarness, openDashboard, settled, signInByHttp, startDashboard } from "./harness.ts";

const SHOTS = process.env.GRAPH_STATS_SCREENSHOTS;
/** The edges' colour (graph-option.ts). */
const EDGE_INK = "#4a5463";

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
/** `hex` at `opacity` over the white of the panel, as the canvas blends it. */
const overWhite = (hex: string, opacity: number) => rgb(hex).map((c) => Math.round(255 + opacity * (c - 255))) as [number, number, number];

/** How many pixels of the chart's canvas, seen over the panel's white (the canvas itself is transparent), are within 2 of each colour. */
function pixels(page: Page, chart: string, colours: [number, number, number][]): Promise<number[]> {
  return page
    .locator(`${chart} canvas`)
    .first()
    .evaluate((c: any, colours: [number, number, number][]) => {
      const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      const counts = colours.map(() => 0);
      for (let i = 0; i < data.length; i += 4) {
        const seen = [0, 1, 2].map((j) => 255 + (data[i + 3] / 255) * (data[i + j] - 255));
        colours.forEach(([r, g, b], k) => {
          if (Math.abs(seen[0] - r) <= 2 && Math.abs(seen[1] - g) <= 2 && Math.abs(seen[2] - b) <= 2) counts[k]++;
        });
      }
      return counts;
    }, colours);
}

/** How many pixels of the network's canvas are the edges' colour at each alpha (0–255): each edge drawn alone is its opacity. */
function edgeAlphas(page: Page): Promise<number[]> {
  return page
    .locator("#graph-chart canvas")
    .first()
    .evaluate((c: any, [r, g, b]: number[]) => {
      const { data } = c.getContext("2d").getImageData(0, 0, c.width, c.height);
      const counts = new Array(256).fill(0);
      for (let i = 0; i < data.length; i += 4)
        if (Math.abs(data[i] - r) <= 3 && Math.abs(data[i + 1] - g) <= 3 && Math.abs(data[i + 2] - b) <= 3) counts[data[i + 3]]++;
      return counts;
    }, rgb(EDGE_INK));
}

describe.skipIf(!chromiumAvailable())("the signal-or-noise views", () => {
  let h: DashboardHarness;
  let browser: Browser;

  beforeAll(async () => {
    h = await startDashboard();
    browser = await sharedBrowser();
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  test("a bootstrap + spectrum query draws the spectrum against λ₊, edges by reliability and the p05–p95 bands", async () => {
    const { context } = await signInByHttp(h, browser, "tara");
    h.clock.tick(61_000);
    const { page, cspErrors } = await openDashboard(h, context);
    const band = overWhite(lineColour(0), BAND_OPACITY);
    // The demo: no spectrum, no band.
    await settled(
      async () => (await page.locator("#rolling-note").textContent()) ?? "",
      (t) => t.includes("as-of dates"),
    );
    expect(await page.locator("#spectrum-panel").isHidden()).toBe(true);
    // A line's antialiased edge can match the band's colour here and there; a band fills an area.
    const [unshaded] = await pixels(page, "#rolling-chart", [band]);
    expect(unshaded).toBeLessThan(50);

    const seed = page.getByLabel("Seed");
    expect(await seed.isDisabled()).toBe(true); // only beside a bootstrap B
    await page.getByLabel("Periods").fill("5");
    await page.getByLabel("Spectrum").selectOption("true");
    await page.getByLabel("Graphs of").selectOption("all");
    await page.getByLabel("Bootstrap B").fill("20");
    expect(await seed.isDisabled()).toBe(false);
    await seed.fill("7");
    const request = page.waitForRequest((r) => r.url().endsWith("/dashboard/api/query"));
    const response = page.waitForResponse((r) => r.url().endsWith("/dashboard/api/query"));
    await page.getByRole("button", { name: /Run my query/ }).click();
    expect((await request).postDataJSON().params).toMatchObject({ spectrum: "true", include_graph: "all", bootstrap: "20", seed: "7" });
    const answer = (await (await response).json()).data;
    expect(answer.type).toBe("rolling");

    // The spectrum: the latest as-of's at first, any other on choosing it.
    await page.locator("#spectrum-panel").waitFor({ state: "visible" });
    const latest = answer.latest_graph.spectrum;
    const first = answer.graphs[0].spectrum;
    const caption = () => page.locator("#spectrum-caption").textContent();
    expect(await caption()).toStartWith(
      `As of ${answer.asof_dates[4].slice(0, 10)} · ${latest.n_above} of 50 eigenvalues above λ₊ = ${latest.lambda_plus.toFixed(3)}`,
    );
    expect(await caption()).toContain(`absorption ratio ${latest.absorption_ratio.toFixed(3)} (the top 10 eigenvalues'`);
    const label = (await page.locator("#spectrum-chart").getAttribute("aria-label")) ?? "";
    expect(label).toStartWith(
      `Bar chart of the 50 eigenvalues of the correlation matrix, largest first: ${latest.eigenvalues[0].toFixed(2)}, `,
    );
    expect(await page.locator("#spectrum-asof option").allTextContents()).toEqual(answer.asof_dates.map((d: string) => d.slice(0, 10)));
    // Bars above λ₊ in colour, the rest grey, λ₊ across them.
    const [signal, noise, edge] = await settled(
      () => pixels(page, "#spectrum-chart", [rgb(SIGNAL_COLOUR), rgb(NOISE_COLOUR), rgb(EDGE_COLOUR)]),
      (n) => n.every((x) => x > 0),
    );
    expect(latest.n_above).toBeGreaterThan(0);
    expect(signal).toBeGreaterThan(100);
    expect(noise).toBeGreaterThan(100);
    expect(edge).toBeGreaterThan(20);
    await page.getByLabel("Eigenvalues on").selectOption(answer.asof_dates[0]);
    expect(await caption()).toStartWith(`As of ${answer.asof_dates[0].slice(0, 10)} · ${first.n_above} of 50 eigenvalues`);

    // The network: edges by reliability, the stability beside the modularity.
    const g = answer.latest_graph;
    expect(g.edge_list.every((e: { reliability?: number }) => typeof e.reliability === "number")).toBe(true);
    expect(g.edge_list.some((e: { reliability: number }) => e.reliability < 0.5)).toBe(true); // some edges are drawn faint
    const graphCaption = (await page.locator("#graph-caption").textContent()) ?? "";
    expect(graphCaption).toContain(`modularity ${g.modularity.toFixed(3)} · community stability ${g.community_stability.toFixed(3)}`);
    expect(graphCaption).toContain("edge opacity: reliability (share of resamples holding the edge)");
    // Antialiasing spreads every alpha below an edge's own, but the most common ones are the edges'
    // opacities: each one its reliability's, and some faint.
    const opacities = new Set(g.edge_list.map((e: { reliability: number }) => Math.round(255 * reliabilityOpacity(e.reliability))));
    const alphas = await edgeAlphas(page);
    const commonest = [...alphas.keys()].sort((a, b) => alphas[b]! - alphas[a]!).slice(0, 10);
    for (const a of commonest)
      expect(
        [a - 1, a, a + 1].some((x) => opacities.has(x)),
        `alpha ${a}`,
      ).toBe(true);
    expect(commonest.some((a) => a < 128)).toBe(true);
    expect(await page.locator("#graph-chart").getAttribute("aria-label")).toEndWith(
      "Edge opacity is each edge's bootstrap reliability: the share of resamples whose graph holds it.",
    );

    // The rolling chart: each line's band is shaded in its colour (one stock alone, so no other band overlaps it).
    expect(await page.locator("#rolling-note").textContent()).toContain("each in its bootstrap band from the 5th to the 95th percentile");
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.getByLabel("Eigenvalues on").selectOption(answer.asof_dates[4]);
      await page.locator(".network-grid").screenshot({ path: join(SHOTS, "14-signal-noise.png") });
    }
    await page.getByRole("button", { name: "Clear" }).click();
    await page.locator("#stock-options input").first().check();
    const [shaded] = await settled(
      () => pixels(page, "#rolling-chart", [band]),
      ([n]) => n > 500,
    );
    expect(shaded).toBeGreaterThan(500);
    // At phone width the new panel and fields keep to the page.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(cspErrors).toEqual([]);
    await context.close();
  });
});
