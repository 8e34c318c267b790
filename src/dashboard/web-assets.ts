/**
 * The dashboard's script and stylesheet. The compiled binary carries them (src/build.ts bundles
 * them and defines GRAPH_STATS_WEB_ASSETS); from source they are bundled once, at first use.
 */
declare const GRAPH_STATS_WEB_ASSETS: { js: string; css: string } | undefined;

export interface WebAssets {
  js: Buffer;
  jsGzip: Buffer;
  css: Buffer;
  cssGzip: Buffer;
  /** Short content hash: the URLs change when the content does, so they can be cached for a year. */
  version: string;
  jsUrl: string;
  cssUrl: string;
}

let loading: Promise<WebAssets> | null = null;

export function loadWebAssets(): Promise<WebAssets> {
  loading ??= (async () => {
    const raw =
      typeof GRAPH_STATS_WEB_ASSETS !== "undefined" ? GRAPH_STATS_WEB_ASSETS : await (await import("./web/bundle.ts")).bundleWebAssets();
    const js = Buffer.from(raw.js);
    const css = Buffer.from(raw.css);
    const version = new Bun.CryptoHasher("sha256").update(js).update(css).digest("hex").slice(0, 12);
    return {
      js,
      jsGzip: Buffer.from(Bun.gzipSync(js, { level: 9 })),
      css,
      cssGzip: Buffer.from(Bun.gzipSync(css, { level: 9 })),
      version,
      jsUrl: `/dashboard/assets/app.js?v=${version}`,
      cssUrl: `/dashboard/assets/app.css?v=${version}`,
    };
  })().catch((err) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** GET /dashboard/assets/app.js and app.css: gzip when accepted, immutable once versioned. */
export function assetResponse(assets: WebAssets, kind: "js" | "css", acceptsGzip: boolean, base: Record<string, string>): Response {
  const body = kind === "js" ? (acceptsGzip ? assets.jsGzip : assets.js) : acceptsGzip ? assets.cssGzip : assets.css;
  const headers: Record<string, string> = {
    ...base,
    "Content-Type": kind === "js" ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8",
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    Vary: "Accept-Encoding",
    ETag: `"${assets.version}"`,
  };
  if (acceptsGzip) headers["Content-Encoding"] = "gzip";
  return new Response(body, { headers });
}
