/// <reference lib="dom" />
/**
 * The console's Plans section: the plans with their users, and one form that creates a plan or,
 * after a row's Edit, changes that plan's limits (its name stays: users refer to it).
 */
import { callApi } from "./api.ts";
import { count } from "./admin-format.ts";
import { plansTableHtml, readPlanForm } from "./admin-plans-model.ts";
import type { AdminPlan } from "./admin-types.ts";
import { announce, byId } from "./dom.ts";

export interface PlansSection {
  /** The plans last read (the Users section's plan selector offers them). */
  plans(): AdminPlan[];
  reload(): Promise<void>;
}

export function initPlans(changed: () => void): PlansSection {
  const table = byId("plans-table");
  const form = byId<HTMLFormElement>("plan-form");
  const name = byId<HTMLInputElement>("plan-name");
  const perMinute = byId<HTMLInputElement>("plan-per-minute");
  const perDay = byId<HTMLInputElement>("plan-per-day");
  const submit = byId<HTMLButtonElement>("plan-submit");
  const cancel = byId<HTMLButtonElement>("plan-cancel");
  const heading = byId("plan-form-heading");
  let plans: AdminPlan[] = [];
  /** The plan being edited, or null while the form creates one. */
  let editing: string | null = null;

  const load = async () => {
    const res = await callApi<{ plans: AdminPlan[] }>("GET", "/dashboard/api/admin/plans");
    if (!res.ok) {
      announce(byId("plans-error"), `The plans could not be read: ${res.message}`);
      return;
    }
    plans = res.data.plans;
    if (table) table.innerHTML = plansTableHtml(plans);
  };

  const setMode = (plan: AdminPlan | null) => {
    editing = plan?.name ?? null;
    if (name) {
      name.value = plan?.name ?? "";
      name.readOnly = plan !== null;
    }
    if (perMinute) perMinute.value = plan ? String(plan.per_minute) : "";
    if (perDay) perDay.value = plan ? String(plan.per_day) : "";
    if (heading) heading.textContent = plan ? `Edit plan ${plan.name}` : "New plan";
    if (submit) submit.textContent = plan ? "Save plan" : "Create plan";
    if (cancel) cancel.hidden = plan === null;
  };

  table?.addEventListener("click", (ev) => {
    const which = (ev.target as HTMLElement).closest<HTMLElement>("[data-edit-plan]")?.dataset.editPlan;
    const plan = plans.find((p) => p.name === which);
    if (!plan) return;
    setMode(plan);
    announce(byId("plans-error"), "");
    perMinute?.focus();
  });
  cancel?.addEventListener("click", () => {
    setMode(null);
    name?.focus();
  });

  form?.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const read = readPlanForm(
      { name: name?.value ?? "", perMinute: perMinute?.value ?? "", perDay: perDay?.value ?? "" },
      editing === null,
    );
    if (!read.ok) {
      announce(byId("plans-error"), read.messages.join(" "));
      return;
    }
    const { name: planName, ...limits } = read.plan;
    const res =
      editing === null
        ? await callApi<{ plan: AdminPlan }>("POST", "/dashboard/api/admin/plans", read.plan)
        : await callApi<{ plan: AdminPlan }>("POST", `/dashboard/api/admin/plans/${encodeURIComponent(editing)}`, limits);
    if (!res.ok) {
      announce(byId("plans-error"), res.message);
      return;
    }
    announce(byId("plans-error"), "");
    const p = res.data.plan;
    const verb = editing === null ? "created" : "saved";
    announce(byId("plans-status"), `Plan ${p.name ?? planName} ${verb}: ${count(p.per_minute)}/min, ${count(p.per_day)}/day.`);
    setMode(null);
    await load();
    changed();
  });

  void load();
  return { plans: () => plans, reload: load };
}
