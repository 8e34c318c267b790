/** GET /dashboard/assets/app.js and app.css: the bundled script and stylesheet (no CDN). */
import type { DashboardHandler } from "../../http/context.ts";
import { acceptsGzip } from "../../http/envelope.ts";
import { assetResponse } from "../web-assets.ts";
import type { DashboardContext } from "./context.ts";

export const asset =
  (c: DashboardContext, kind: "js" | "css"): DashboardHandler =>
  async (request, state) =>
    assetResponse(await c.d.assets(), kind, acceptsGzip(request.headers.get("accept-encoding")), state.base);
