/// <reference lib="dom" />
/** The console's Universes section, read once when the page opens (imports happen from the CLI). */
import { callApi } from "./api.ts";
import type { AdminUniverse } from "./admin-types.ts";
import { adminUniversesTableHtml } from "./admin-universes-model.ts";
import { announce, byId } from "./dom.ts";

export async function initUniverses(): Promise<void> {
  const table = byId("universes-table");
  if (!table) return;
  const res = await callApi<{ universes: AdminUniverse[] }>("GET", "/dashboard/api/admin/universes");
  if (!res.ok) {
    announce(byId("universes-error"), `The universes could not be read: ${res.message}`);
    return;
  }
  table.innerHTML = adminUniversesTableHtml(res.data.universes);
}
