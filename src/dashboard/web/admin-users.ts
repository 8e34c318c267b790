/// <reference lib="dom" />
/**
 * The console's Users section: search (id, name or e-mail), a page of 50 at a time, and the chosen
 * user's actions — plan, own limits, disable or enable, revoke every token — each a POST the server
 * checks and audits; the row and panel are redrawn from the user it answers with.
 */
import { callApi } from "./api.ts";
import { count, parseLimit, userLabel } from "./admin-format.ts";
import type { AdminPlan, AdminUser, UserPage } from "./admin-types.ts";
import { userPanelHtml, usersCountText, usersTableHtml } from "./admin-users-model.ts";
import { announce, byId } from "./dom.ts";

const PAGE = 50;

export interface UsersOptions {
  /** The plans the plan selector offers (the Plans section keeps them). */
  plans: () => AdminPlan[];
  /** After every change: the audit log and the plans' user counts are read again. */
  changed: () => void;
}

export interface UsersSection {
  /** Reads the current page again (after a plan changed, its users' limits did too). */
  reload(): Promise<void>;
}

export function initUsers(o: UsersOptions): UsersSection {
  const table = byId("users-table");
  const panel = byId("user-panel");
  const form = byId<HTMLFormElement>("user-search");
  const input = byId<HTMLInputElement>("user-q");
  const prev = byId<HTMLButtonElement>("users-prev");
  const next = byId<HTMLButtonElement>("users-next");
  let q = "";
  let offset = 0;
  let users: AdminUser[] = [];
  let selected: AdminUser | null = null;
  let confirming = false;
  let asked = 0;

  const load = async () => {
    const mine = ++asked;
    const url = `/dashboard/api/admin/users?q=${encodeURIComponent(q)}&offset=${offset}&limit=${PAGE}`;
    const res = await callApi<UserPage>("GET", url);
    if (mine !== asked) return;
    if (!res.ok) {
      announce(byId("users-error"), `The users could not be read: ${res.message}`);
      return;
    }
    announce(byId("users-error"), "");
    users = res.data.users;
    const caption = byId("users-count");
    if (caption) caption.textContent = usersCountText({ total: res.data.total, offset: res.data.offset, shown: users.length }, q);
    if (prev) prev.disabled = offset === 0;
    if (next) next.disabled = offset + users.length >= res.data.total;
    if (selected) selected = users.find((u) => u.id === selected?.id) ?? selected;
    drawTable();
    if (selected) drawPanel();
  };

  const drawTable = () => {
    if (table) table.innerHTML = usersTableHtml(users, selected?.id ?? null);
  };

  const drawPanel = (focus?: string) => {
    if (!panel || !selected) return;
    panel.innerHTML = userPanelHtml(selected, o.plans(), confirming);
    panel.hidden = false;
    if (focus) panel.querySelector<HTMLElement>(focus)?.focus();
  };

  /** A POST for the chosen user; on success its row and panel show what the server answered. */
  const act = async (path: string, body: unknown, said: (u: AdminUser, data: { revoked?: string[] }) => string, focus?: string) => {
    if (!selected) return;
    const id = selected.id;
    const res = await callApi<{ user: AdminUser; revoked?: string[] }>(
      "POST",
      `/dashboard/api/admin/users/${encodeURIComponent(id)}/${path}`,
      body,
    );
    confirming = false;
    if (!res.ok) {
      drawPanel();
      announce(byId("user-error"), res.message);
      return;
    }
    selected = res.data.user;
    users = users.map((u) => (u.id === id ? res.data.user : u));
    drawTable();
    drawPanel(focus);
    announce(byId("user-status"), said(res.data.user, res.data));
    o.changed();
  };

  form?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    q = (input?.value ?? "").trim().slice(0, 200);
    offset = 0;
    void load();
  });
  prev?.addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    void load();
  });
  next?.addEventListener("click", () => {
    offset += PAGE;
    void load();
  });

  table?.addEventListener("click", (ev) => {
    const id = (ev.target as HTMLElement).closest<HTMLElement>("[data-manage]")?.dataset.manage;
    const user = users.find((u) => u.id === id);
    if (!user) return;
    selected = user;
    confirming = false;
    drawTable();
    drawPanel();
    panel?.scrollIntoView({ block: "nearest" });
    byId("user-plan")?.focus();
  });

  panel?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const kind = (ev.target as HTMLElement).dataset.form;
    if (kind === "plan") {
      const plan = byId<HTMLSelectElement>("user-plan")?.value ?? "";
      void act("plan", { plan }, (u) => `${userLabel(u)} is now on the ${u.plan} plan.`, "#user-plan");
    }
    if (kind === "limits") {
      const perMinute = parseLimit(byId<HTMLInputElement>("user-per-minute")?.value ?? "", "The limit per minute");
      const perDay = parseLimit(byId<HTMLInputElement>("user-per-day")?.value ?? "", "The limit per day");
      if (!perMinute.ok || !perDay.ok) {
        announce(
          byId("user-error"),
          [perMinute, perDay]
            .map((r) => (r.ok ? "" : r.message))
            .join(" ")
            .trim(),
        );
        return;
      }
      void act("limits", { per_minute: perMinute.value, per_day: perDay.value }, limitsSaid, "#user-per-minute");
    }
  });

  panel?.addEventListener("click", (ev) => {
    const action = (ev.target as HTMLElement).closest<HTMLElement>("[data-action]")?.dataset.action;
    if (!action || !selected) return;
    if (action === "plan-limits") void act("limits", { per_minute: null, per_day: null }, limitsSaid, "#user-per-minute");
    if (action === "disable") void act("disable", {}, (u) => `${userLabel(u)} is disabled.`, '[data-action="enable"]');
    if (action === "enable") void act("enable", {}, (u) => `${userLabel(u)} is enabled.`, '[data-action="disable"]');
    if (action === "revoke" || action === "revoke-cancel") {
      confirming = action === "revoke";
      drawPanel(confirming ? '[data-action="revoke-confirm"]' : '[data-action="revoke"]');
    }
    if (action === "revoke-confirm") {
      void act("revoke-tokens", {}, (u, d) => revokedSaid(u, d.revoked?.length ?? 0), '[data-action="revoke"]');
    }
  });

  panel?.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && confirming) {
      confirming = false;
      drawPanel('[data-action="revoke"]');
    }
  });

  void load();
  return { reload: load };
}

function limitsSaid(u: AdminUser): string {
  return `${userLabel(u)} now has ${count(u.limits.per_minute)}/min and ${count(u.limits.per_day)}/day.`;
}

function revokedSaid(u: AdminUser, n: number): string {
  return `Revoked ${count(n)} token${n === 1 ? "" : "s"} of ${userLabel(u)}.`;
}
