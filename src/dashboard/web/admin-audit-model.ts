/**
 * The admin audit log as a table: when, who, what, which target, and what changed — the fields
 * whose value differs between `before` and `after`, each as `field: old → new`. Pure, for the unit tests.
 */
import { utcSecond } from "./admin-format.ts";
import type { AuditEntry } from "./admin-types.ts";
import { escapeHtml as e } from "./html.ts";

/** A value in a change: short JSON, lists of more than 3 shortened to their length (revoked token ids). */
export function valueText(v: unknown): string {
  if (v === undefined) return "—";
  if (Array.isArray(v) && v.length > 3) return `[${v.length} items]`;
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The changes an entry records, one line each: `plan: free → team`, or `per_day = 100` for what was created. */
export function changeLines(before: unknown, after: unknown): string[] {
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys
      .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
      .map((k) => {
        if (!(k in b) || before === null) return `${k} = ${valueText(a[k])}`;
        if (!(k in a) || after === null) return `${k} was ${valueText(b[k])}`;
        return `${k}: ${valueText(b[k])} → ${valueText(a[k])}`;
      });
  }
  if (before === null && after === null) return [];
  if (before === null || before === undefined) return [valueText(after)];
  return [`${valueText(before)} → ${valueText(after)}`];
}

export function auditRowsHtml(entries: AuditEntry[]): string {
  return entries
    .map((a) => {
      const lines = changeLines(a.before, a.after);
      return `<tr data-audit="${e(a.id)}">
<th scope="row">${e(utcSecond(a.ts))}</th>
<td><code>${e(a.actor)}</code></td>
<td><code>${e(a.action)}</code></td>
<td>${e(a.target)}</td>
<td class="change">${lines.length ? lines.map((l) => `<span class="change-line">${e(l)}</span>`).join("") : `<span class="muted">—</span>`}</td>
</tr>`;
    })
    .join("\n");
}

export function auditTableHtml(entries: AuditEntry[]): string {
  const body = entries.length ? auditRowsHtml(entries) : `<tr><td colspan="5" class="empty-cell">No entries.</td></tr>`;
  return `<caption>Admin audit log, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Change</th></tr></thead>
<tbody id="audit-rows">${body}</tbody>`;
}
