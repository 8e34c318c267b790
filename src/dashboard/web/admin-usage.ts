/// <reference lib="dom" />
/** The console's Usage section: the chosen range's totals, the requests-per-day chart and its tables. */
import { callApi } from "./api.ts";
import type { UsageOverview } from "./admin-types.ts";
import {
  computeTableHtml,
  refusedTableHtml,
  topUsersTableHtml,
  totalsText,
  usageDaysTableHtml,
  usageOverviewOption,
} from "./admin-usage-model.ts";
import { announce, byId } from "./dom.ts";
import { type Chart, makeChart } from "./echarts-setup.ts";

export interface UsageSection {
  reload(): Promise<void>;
}

export function initUsage(): UsageSection {
  const select = byId<HTMLSelectElement>("usage-days");
  const el = byId("admin-usage-chart");
  let chart: Chart | null = null;
  let asked = 0;

  const load = async () => {
    const mine = ++asked;
    const days = select?.value ?? "30";
    // The overview reads the range's request log (about a second per million rows), so it says it is on its way.
    const section = byId("admin-usage");
    section?.setAttribute("aria-busy", "true");
    const waiting = byId("usage-totals");
    if (waiting) waiting.textContent = `Reading the usage of the last ${days} days…`;
    const res = await callApi<UsageOverview>("GET", `/dashboard/api/admin/usage?days=${encodeURIComponent(days)}`);
    if (mine !== asked) return;
    section?.removeAttribute("aria-busy");
    if (!res.ok) {
      if (waiting) waiting.textContent = "";
      announce(byId("usage-error"), `The usage could not be read: ${res.message}`);
      return;
    }
    announce(byId("usage-error"), "");
    const u = res.data;
    const fill = (id: string, html: string) => {
      const t = byId(id);
      if (t) t.innerHTML = html;
    };
    const totals = byId("usage-totals");
    if (totals) totals.textContent = totalsText(u);
    fill("usage-days-table", usageDaysTableHtml(u));
    fill("top-users-table", topUsersTableHtml(u));
    fill("refused-table", refusedTableHtml(u));
    fill("compute-table", computeTableHtml(u));
    if (el) {
      chart ??= makeChart(el);
      chart.setOption(usageOverviewOption(u), true);
    }
  };

  select?.addEventListener("change", () => void load());
  void load();
  return { reload: load };
}
