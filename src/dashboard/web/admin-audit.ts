/// <reference lib="dom" />
/** The console's Audit log section: newest first, filtered by target or actor, 50 at a time with Older entries. */
import { callApi } from "./api.ts";
import { auditRowsHtml, auditTableHtml } from "./admin-audit-model.ts";
import type { AuditPage } from "./admin-types.ts";
import { announce, byId } from "./dom.ts";

const PAGE = 50;

export interface AuditSection {
  /** The newest entries again, with the filters as they are. */
  reload(): Promise<void>;
}

export function initAudit(): AuditSection {
  const table = byId("audit-table");
  const form = byId<HTMLFormElement>("audit-filter");
  const more = byId<HTMLButtonElement>("audit-more");
  let next: AuditPage["next_before_id"] = null;
  let asked = 0;

  const url = (before: AuditPage["next_before_id"]) => {
    const p = new URLSearchParams({ limit: String(PAGE) });
    const target = byId<HTMLInputElement>("audit-target")?.value.trim();
    const actor = byId<HTMLInputElement>("audit-actor")?.value.trim();
    if (target) p.set("target", target);
    if (actor) p.set("actor", actor);
    if (before !== null) p.set("before_id", String(before));
    return `/dashboard/api/admin/audit?${p}`;
  };

  const load = async (older: boolean) => {
    const mine = ++asked;
    const res = await callApi<AuditPage>("GET", url(older ? next : null));
    if (mine !== asked) return;
    if (!res.ok) {
      announce(byId("audit-error"), `The audit log could not be read: ${res.message}`);
      return;
    }
    announce(byId("audit-error"), "");
    next = res.data.next_before_id;
    const rows = byId("audit-rows");
    if (older && rows) rows.insertAdjacentHTML("beforeend", auditRowsHtml(res.data.entries));
    else if (table) table.innerHTML = auditTableHtml(res.data.entries);
    if (more) more.hidden = next === null;
  };

  form?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void load(false);
  });
  more?.addEventListener("click", () => void load(true));
  void load(false);
  return { reload: () => load(false) };
}
