/// <reference lib="dom" />
/**
 * The dashboard's browser script: reads the view the server embedded in #gs-state, wires the
 * API access, usage, data and network sections, and refreshes them from /dashboard/api/state after
 * every change, and the usage also while the page is in view (calls made elsewhere count too).
 * On the admin console's page it starts the console instead (admin-main.ts).
 */
import type { DashboardView, SignedInView } from "../view-model.ts";
import { startConsole } from "./admin-main.ts";
import { callApi, setCsrf } from "./api.ts";
import { initData } from "./data-panel.ts";
import { announce, byId } from "./dom.ts";
import { initNetwork } from "./network-panel.ts";
import { initTokens, renderTokens } from "./tokens-panel.ts";
import { renderUsage } from "./usage-panel.ts";
import { keepUsageFresh } from "./usage-refresh.ts";

function readState(): DashboardView | null {
  const el = byId("gs-state");
  try {
    return el?.textContent ? (JSON.parse(el.textContent) as DashboardView) : null;
  } catch {
    return null;
  }
}

async function refresh(): Promise<void> {
  const res = await callApi<SignedInView>("GET", "/dashboard/api/state");
  if (!res.ok) {
    announce(byId("token-error"), res.message);
    return;
  }
  setCsrf(res.data.csrf);
  renderTokens(res.data);
  renderUsage(res.data.usage, refreshUsageIfSeen);
}

/**
 * The background refresh: the usage only, as re-rendering the token list would take the keyboard
 * focus off a Revoke button. Quiet on failure except a lost session, which also ends the polling.
 */
async function refreshUsage(): Promise<boolean> {
  const res = await callApi<SignedInView>("GET", "/dashboard/api/state");
  if (!res.ok) {
    if (res.status === 401) announce(byId("token-error"), res.message);
    return res.status !== 401;
  }
  setCsrf(res.data.csrf);
  renderUsage(res.data.usage, refreshUsageIfSeen);
  return true;
}

/** The wake-up when a full minute window frees: a hidden page asks nothing, and catches up when seen. */
function refreshUsageIfSeen(): void {
  if (document.visibilityState === "visible") void refreshUsage();
}

function start(): void {
  if (startConsole()) return; // the admin console's page: one bundle serves both
  const view = readState();
  const signedIn = view?.signedIn ?? null;
  if (signedIn) {
    setCsrf(signedIn.csrf);
    initTokens(refresh);
    renderUsage(signedIn.usage, refreshUsageIfSeen);
    keepUsageFresh(refreshUsage);
    void initData();
  }
  initNetwork(() => void refresh());
}

start();
