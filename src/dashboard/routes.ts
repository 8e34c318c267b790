/**
 * The dashboard's routes (README.md § Dashboard), declared once: pages, sign-in and sign-out, and
 * the JSON actions of a signed-in user, one file each in endpoints/. Every state change is a POST
 * whose Origin must be the service's own and which must carry the session's CSRF token
 * (endpoints/context.ts); pages carry a strict Content-Security-Policy. The admin console's page and
 * APIs (endpoints/admin/) answer only an admin's session, checked on every request (requireAdmin).
 */
import type { DashboardHandler, DashboardRoute } from "../http/context.ts";
import { adminAudit } from "./endpoints/admin/audit.ts";
import { createPlan } from "./endpoints/admin/create-plan.ts";
import { editPlan } from "./endpoints/admin/edit-plan.ts";
import { adminPage } from "./endpoints/admin/page.ts";
import { adminPlans } from "./endpoints/admin/plans.ts";
import { revokeUserTokens } from "./endpoints/admin/revoke-tokens.ts";
import { adminUniverses } from "./endpoints/admin/universes.ts";
import { adminUsage } from "./endpoints/admin/usage.ts";
import { userDisabled } from "./endpoints/admin/user-disabled.ts";
import { userLimits } from "./endpoints/admin/user-limits.ts";
import { userPlan } from "./endpoints/admin/user-plan.ts";
import { adminUsers } from "./endpoints/admin/users.ts";
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
    { method: "GET", path: "/dashboard/admin", handler: adminPage(c) },
    { method: "GET", path: "/dashboard/api/admin/users", handler: adminUsers(c) },
    { method: "GET", path: "/dashboard/api/admin/plans", handler: adminPlans(c) },
    { method: "GET", path: "/dashboard/api/admin/usage", handler: adminUsage(c) },
    { method: "GET", path: "/dashboard/api/admin/universes", handler: adminUniverses(c) },
    { method: "GET", path: "/dashboard/api/admin/audit", handler: adminAudit(c) },
    { method: "POST", path: "/dashboard/api/admin/users/:id/plan", handler: userPlan(c) },
    { method: "POST", path: "/dashboard/api/admin/users/:id/limits", handler: userLimits(c) },
    { method: "POST", path: "/dashboard/api/admin/users/:id/disable", handler: userDisabled(c, true) },
    { method: "POST", path: "/dashboard/api/admin/users/:id/enable", handler: userDisabled(c, false) },
    { method: "POST", path: "/dashboard/api/admin/users/:id/revoke-tokens", handler: revokeUserTokens(c) },
    { method: "POST", path: "/dashboard/api/admin/plans", handler: createPlan(c) },
    { method: "POST", path: "/dashboard/api/admin/plans/:name", handler: editPlan(c) },
  ];
}
