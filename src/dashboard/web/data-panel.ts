/// <reference lib="dom" />
/** The Data section: the stored universes with their freshness, and the chosen universe's coverage. */
import { callApi } from "./api.ts";
import { announce, byId } from "./dom.ts";
import { calendarText, coverageTableHtml, type DataCatalogue, type UniverseDetail, universesTableHtml } from "./data-model.ts";
import { escapeHtml as e } from "./html.ts";

/** Counts the coverages asked for: one that comes back after a later choice is not drawn. */
let asked = 0;

export async function initData(): Promise<void> {
  const table = byId("data-universes");
  const select = byId<HTMLSelectElement>("data-universe");
  if (!table || !select) return;
  select.addEventListener("change", () => void showCoverage(select.value));
  const res = await callApi<DataCatalogue>("GET", "/dashboard/api/universes");
  if (!res.ok) {
    announce(byId("data-error"), `The stored universes could not be read: ${res.message}`);
    return;
  }
  table.innerHTML = universesTableHtml(res.data);
  const names = res.data.universes.map((u) => u.name);
  select.innerHTML = names.map((n) => `<option value="${e(n)}">${e(n)}</option>`).join("");
  select.disabled = names.length === 0;
  if (names.length) await showCoverage(names[0]);
}

async function showCoverage(name: string): Promise<void> {
  const mine = ++asked;
  const res = await callApi<UniverseDetail>("GET", `/dashboard/api/universes/${encodeURIComponent(name)}`);
  if (mine !== asked) return;
  const table = byId("data-coverage");
  const calendar = byId("data-calendar");
  if (!res.ok) {
    announce(byId("data-error"), `The coverage of ${name} could not be read: ${res.message}`);
    return;
  }
  announce(byId("data-error"), "");
  if (calendar) calendar.textContent = calendarText(res.data);
  if (table) table.innerHTML = coverageTableHtml(res.data);
}
