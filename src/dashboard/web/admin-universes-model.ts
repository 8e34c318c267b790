/** The console's Universes section as a table: each universe's size, intervals, newest bar and whether it is stale (the server judges). */
import { count } from "./admin-format.ts";
import type { AdminUniverse } from "./admin-types.ts";
import { barTime } from "./data-model.ts";
import { escapeHtml as e } from "./html.ts";

export function adminUniversesTableHtml(universes: AdminUniverse[]): string {
  if (universes.length === 0) {
    return `<caption>Stored universes</caption><tbody><tr><td class="empty-cell">No universe is stored yet: import one with <code>graph-stats import</code>.</td></tr></tbody>`;
  }
  const rows = universes
    .map((u) => {
      const state = u.last_bar === null ? "empty" : u.stale ? "stale" : u.data_source === "synthetic" ? "sample" : "fresh";
      const word = u.freshness ?? (u.last_bar === null ? "No bars" : u.stale ? "Stale" : "Fresh");
      return `<tr data-universe="${e(u.name)}"><th scope="row">${e(u.name)}</th><td>${count(u.symbols)}</td><td>${e(u.intervals.join(", ") || "—")}</td><td>${e(barTime(u.last_bar))}</td><td><span class="freshness ${state}">${e(word)}</span></td></tr>`;
    })
    .join("");
  return `<caption>Stored universes and their freshness</caption><thead><tr><th scope="col">Universe</th><th scope="col">Symbols</th><th scope="col">Intervals</th><th scope="col">Last bar</th><th scope="col">Freshness</th></tr></thead><tbody>${rows}</tbody>`;
}
