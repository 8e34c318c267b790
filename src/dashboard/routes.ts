/**
 * The dashboard's routes (README.md § Dashboard), declared once: pages, sign-in and sign-out, and
 * the JSON actions of a signed-in user, one file each in endpoints/. Every state change is a POST
 * whose Origin must be the service's own and which must carry the session's CSRF token
 * (endpoints/context.ts); pages carry a strict Content-Security-Policy.
 */
import type { DashboardHandler, DashboardRoute } from "../http/context.ts";
import { asset } from "./endpoints/assets.ts";
import { callback } from "./endpoints/callback.ts";
import { createDashboardContext } from "./endpoints/context.ts";
import type { DashboardDeps } from "./endpoints/deps.ts";
import { generateToken } from "./endpoints/generate-token.ts";
import { login } from "./endpoints/login.ts";
import { logout } from "./endpoints/logout.ts";
import { dashboardPage } from "./endpoints/page.ts";
import { userQuery } from "./endpoints/query.ts";
import { revokeToken } from "./endpoints/revoke-token.ts";
import { dashboardState } from "./endpoints/state.ts";
import { dataUniverse, dataUniverses } from "./endpoints/universes.ts";

export { CSP, LOGIN_TTL_S } from "./endpoints/context.ts";
export type { DashboardDeps, DashboardHandler, DashboardRoute };

export function dashboardRoutes(d: DashboardDeps): DashboardRoute[] {
  const c = createDashboardContext(d);
  return [
    { method: "GET", path: "/dashboard/assets/app.js", handler: asset(c, "js") },
    { method: "GET", path: "/dashboard/assets/app.css", handler: asset(c, "css") },
    { method: "GET", path: "/dashboard", handler: dashboardPage(c) },
    { method: "GET", path: "/auth/login", handler: login(c) },
    { method: "GET", path: "/auth/callback", handler: callback(c) },
    { method: "POST", path: "/auth/logout", handler: logout(c) },
    { method: "GET", path: "/dashboard/api/state", handler: dashboardState(c) },
    { method: "GET", path: "/dashboard/api/universes", handler: dataUniverses(c) },
    { method: "GET", path: "/dashboard/api/universes/:name", handler: dataUniverse(c) },
    { method: "POST", path: "/dashboard/api/tokens", handler: generateToken(c) },
    { method: "POST", path: "/dashboard/api/tokens/:jti/revoke", handler: revokeToken(c) },
    { method: "POST", path: "/dashboard/api/query", handler: userQuery(c) },
  ];
}
