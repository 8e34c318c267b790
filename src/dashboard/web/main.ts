/// <reference lib="dom" />
/**
 * The dashboard's browser script: reads the view the server embedded in #gs-state, wires the
 * API access, usage and network sections, and refreshes them from /dashboard/api/state after
 * every change.
 */
import type { DashboardView, SignedInView } from "../view-model.ts";
import { callApi, setCsrf } from "./api.ts";
import { announce, byId } from "./dom.ts";
import { initNetwork } from "./network-panel.ts";
import { initTokens, renderTokens } from "./tokens-panel.ts";
import { renderUsage } from "./usage-panel.ts";

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
  renderUsage(res.data.usage, () => void refresh());
}

function start(): void {
  const view = readState();
  const signedIn = view?.signedIn ?? null;
  if (signedIn) {
    setCsrf(signedIn.csrf);
    initTokens(refresh);
    renderUsage(signedIn.usage, () => void refresh());
  }
  initNetwork(() => void refresh());
}

start();
