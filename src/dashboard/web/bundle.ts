/**
 * Bundles the dashboard's browser script (main.ts and what it imports, ECharts included) into
 * one minified file and reads the stylesheet: called at server start when running from source,
 * and at build time so the single binary embeds both (no CDN, works offline).
 */
import { join } from "node:path";

const WEB_DIR = import.meta.dir;

export interface WebAssets {
  js: string;
  css: string;
}

export async function bundleWebAssets(): Promise<WebAssets> {
  const result = await Bun.build({
    entrypoints: [join(WEB_DIR, "main.ts")],
    minify: true,
    target: "browser",
    // ECharts keeps development-only checks behind this test; defining it drops them.
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) {
    const why = result.logs.map((l) => l.message).join("; ");
    throw new Error(`bundling the dashboard script failed: ${why}`);
  }
  const entry = result.outputs.find((o) => o.kind === "entry-point") ?? result.outputs[0];
  const [js, css] = await Promise.all([entry.text(), Bun.file(join(WEB_DIR, "styles.css")).text()]);
  return { js, css };
}
