/**
 * The console's usage overview from GET /dashboard/api/admin/usage: the totals sentence, the
 * requests-per-day chart's ECharts option (admitted and refused stacked, 5xx as a line) and the
 * tables (the days, the top users, refusals by code, compute by user). Pure, for the unit tests.
 */
import { computeTime, count } from "./admin-format.ts";
import type { UsageOverview } from "./admin-types.ts";
import { escapeHtml as e } from "./html.ts";

const AXIS = "#5b6472";
const COLOURS = { admitted: "#2f5bd3", refused: "#e0a03a", errors: "#b42318" };

export function totalsText(u: UsageOverview): string {
  const t = u.totals;
  return [
    `${count(t.admitted)} admitted`,
    `${count(t.refused)} refused`,
    `${count(t.refunded)} refunded`,
    `${count(t.server_errors)} server errors (5xx)`,
    `${computeTime(t.compute_ms)} of compute`,
  ].join(" · ");
}

interface AxisParam {
  name: string;
  seriesName: string;
  seriesIndex: number;
  value: number;
}

/** The series' swatches in the tooltip: classes of styles.css (ECharts' own marker has an inline style the CSP refuses). */
const SWATCHES = ["usage-admitted", "usage-refused", "usage-errors"];

export function usageOverviewOption(u: UsageOverview) {
  const quiet = u.days.every((d) => d.admitted + d.refused + d.server_errors === 0);
  return {
    animation: false,
    grid: { left: 8, right: 8, top: 36, bottom: 4, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 14, itemHeight: 10, textStyle: { color: AXIS } },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      className: "gs-tooltip",
      confine: true,
      formatter: (params: AxisParam[]) =>
        `<div class="tt-title">${e(params[0]?.name ?? "")}</div>${params
          .map((p) => `<div><span class="swatch ${SWATCHES[p.seriesIndex] ?? ""}"></span>${e(p.seriesName)}: ${count(p.value)}</div>`)
          .join("")}`,
    },
    xAxis: {
      type: "category",
      data: u.days.map((d) => d.day),
      axisTick: { alignWithLabel: true },
      axisLabel: { formatter: (v: string) => v.slice(5), hideOverlap: true, color: AXIS },
      axisLine: { lineStyle: { color: "#c9ced6" } },
    },
    yAxis: {
      type: "value",
      minInterval: 1,
      // ECharts' own rounded scale, except for a range with no requests: an axis of 0 to 1 then.
      ...(quiet ? { max: 1 } : {}),
      axisLabel: { color: AXIS },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: [
      {
        type: "bar",
        name: "Admitted",
        stack: "requests",
        barMaxWidth: 18,
        itemStyle: { color: COLOURS.admitted },
        data: u.days.map((d) => d.admitted),
      },
      {
        type: "bar",
        name: "Refused",
        stack: "requests",
        barMaxWidth: 18,
        itemStyle: { color: COLOURS.refused },
        data: u.days.map((d) => d.refused),
      },
      {
        type: "line",
        name: "Server errors",
        showSymbol: false,
        itemStyle: { color: COLOURS.errors },
        lineStyle: { width: 1.5 },
        data: u.days.map((d) => d.server_errors),
      },
    ],
  };
}

/** The chart's text alternative: every day, newest first. */
export function usageDaysTableHtml(u: UsageOverview): string {
  const rows = [...u.days]
    .reverse()
    .map(
      (d) =>
        `<tr><th scope="row">${e(d.day)}</th><td>${count(d.admitted)}</td><td>${count(d.refused)}</td><td>${count(d.uncounted)}</td><td>${count(d.refunded)}</td><td>${count(d.server_errors)}</td></tr>`,
    )
    .join("");
  return `<caption>Requests per UTC day across users</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Admitted</th><th scope="col">Refused</th><th scope="col">Uncounted</th><th scope="col">Refunded</th><th scope="col">5xx</th></tr></thead>
<tbody>${rows}</tbody>`;
}

function emptyRow(columns: number, text: string): string {
  return `<tr><td colspan="${columns}" class="empty-cell">${e(text)}</td></tr>`;
}

export function topUsersTableHtml(u: UsageOverview): string {
  const rows = u.top_users.length
    ? u.top_users
        .map(
          (r) =>
            `<tr><th scope="row"><span class="cell-main">${e(r.user)}</span>${r.email ? `<span class="cell-sub">${e(r.email)}</span>` : ""}</th><td>${count(r.admitted)}</td><td>${e(computeTime(r.compute_ms))}</td></tr>`,
        )
        .join("")
    : emptyRow(3, "No requests in this range.");
  return `<caption>Top users by requests admitted</caption>
<thead><tr><th scope="col">User</th><th scope="col">Admitted</th><th scope="col">Compute</th></tr></thead>
<tbody>${rows}</tbody>`;
}

export function refusedTableHtml(u: UsageOverview): string {
  const rows = u.refused_by_code.length
    ? u.refused_by_code.map((r) => `<tr><th scope="row"><code>${e(r.code)}</code></th><td>${count(r.requests)}</td></tr>`).join("")
    : emptyRow(2, "Nothing refused in this range.");
  return `<caption>Refused requests by error code</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Requests</th></tr></thead>
<tbody>${rows}</tbody>`;
}

export function computeTableHtml(u: UsageOverview): string {
  const rows = u.compute_by_user.length
    ? u.compute_by_user.map((r) => `<tr><th scope="row">${e(r.user)}</th><td>${e(computeTime(r.compute_ms))}</td></tr>`).join("")
    : emptyRow(2, "No compute in this range.");
  return `<caption>Compute time by user</caption>
<thead><tr><th scope="col">User</th><th scope="col">Compute</th></tr></thead>
<tbody>${rows}</tbody>`;
}
