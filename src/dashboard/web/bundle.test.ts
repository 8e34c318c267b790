import { describe, expect, test } from "bun:test";
import { bundleWebAssets } from "./bundle.ts";

describe("bundleWebAssets", () => {
  test("one minified script and the stylesheet, with nothing a strict CSP (no 'unsafe-eval') refuses", async () => {
    const { js, css } = await bundleWebAssets();
    expect(js.length).toBeGreaterThan(100_000); // ECharts is in it: no CDN, works offline
    expect(js.length).toBeLessThan(900_000);
    expect(js).not.toMatch(/\beval\s*\(/);
    expect(js).not.toMatch(/new\s+Function\s*\(/);
    expect(js).not.toMatch(/\bFunction\s*\(\s*["'`]/);
    expect(js).not.toContain("process.env");
    expect(js).not.toMatch(/^\s*(import|export)\s/m); // self-contained: no module imports left to fetch
    expect(js).toContain("/dashboard/api/tokens");
    expect(js).toContain("gs-state");
    expect(css).toContain(".visually-hidden");
    expect(css).toContain(".dev-badge");
  });
});
