/// <reference lib="dom" />
/**
 * The admin console's browser script (GET /dashboard/admin): reads the view the server embedded in
 * #gs-admin, then fills each section from /dashboard/api/admin/* and wires its actions. After any
 * change the audit log, the plans' user counts and the users' limits are read again.
 */
import type { AdminPageView } from "../view-model.ts";
import { setCsrf } from "./api.ts";
import { initAudit } from "./admin-audit.ts";
import { initPlans } from "./admin-plans.ts";
import { initUniverses } from "./admin-universes.ts";
import { initUsage } from "./admin-usage.ts";
import { initUsers } from "./admin-users.ts";

/** Starts the console when the page is it (`#gs-admin` holds its view); false on any other page. */
export function startConsole(): boolean {
  const el = document.getElementById("gs-admin");
  if (!el?.textContent) return false;
  let view: AdminPageView;
  try {
    view = JSON.parse(el.textContent) as AdminPageView;
  } catch {
    return false;
  }
  setCsrf(view.csrf);
  const audit = initAudit();
  initUsage();
  const plans = initPlans(() => {
    void users.reload();
    void audit.reload();
  });
  const users = initUsers({
    plans: plans.plans,
    changed: () => {
      void plans.reload();
      void audit.reload();
    },
  });
  void initUniverses();
  return true;
}
