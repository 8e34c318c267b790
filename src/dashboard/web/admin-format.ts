/**
 * The console's number and wording formats, in one place so its tables, figures and tests agree.
 * Deterministic (no locale): the server does not know the reader's, and tests compare the text.
 */
import type { Counts, LimitSource } from "./admin-types.ts";

/** `12 345`: thin-space thousands, readable in narrow table cells and the same in every browser. */
export function count(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
}

/** Compute time: `850 ms`, `12.4 s`, `3.5 min`, `2.1 h`. */
export function computeTime(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  if (s < 3600) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

const SOURCE_WORDS: Record<LimitSource, string> = { user: "own", plan: "plan", default: "default" };

/** Where a limit comes from, as a short tag: the user's own, its plan's, or the configured default. */
export function sourceWord(source: LimitSource): string {
  return SOURCE_WORDS[source] ?? source;
}

/** Admitted requests, with the refused ones after them when there are any: `12`, `12 (3 refused)`. */
export function countsText(c: Counts): string {
  return c.refused > 0 ? `${count(c.admitted)} (${count(c.refused)} refused)` : count(c.admitted);
}

/** A user as a person reads it: the name, else the e-mail, else the id. */
export function userLabel(u: { id: string; name: string | null; email: string | null }): string {
  return u.name ?? u.email ?? u.id;
}

/** `2026-12-02 13:05:09 UTC` from an ISO time (to the second: audit entries often share a minute). */
export function utcSecond(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/**
 * A limit field's value as the server takes it: empty is null (back to the plan's), a whole number
 * ≥ 0 is itself, anything else is a sentence naming the field.
 */
export function parseLimit(text: string, field: string): { ok: true; value: number | null } | { ok: false; message: string } {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  if (!/^\d{1,9}$/.test(t))
    return { ok: false, message: `${field} must be a whole number of requests (0 or more), or empty for the plan's.` };
  return { ok: true, value: Number(t) };
}
