/**
 * Wording and number formats shared by the server-rendered page and the browser script, so the
 * text a test or a reader sees is the same before and after a refresh.
 */

export const METRIC_LABELS: Record<string, string> = {
  degree_strength: "Degree strength",
  eigenvector_centrality: "Eigenvector centrality",
  betweenness_centrality: "Betweenness centrality",
  closeness_centrality: "Closeness centrality",
  pagerank: "PageRank",
};

export const METRIC_NAMES = Object.keys(METRIC_LABELS);

export function metricLabel(name: string): string {
  return METRIC_LABELS[name] ?? name;
}

/** The jti as shown in lists and accessible names: its first 8 characters and an ellipsis. */
export function shortJti(jti: string): string {
  return jti.length > 8 ? `${jti.slice(0, 8)}…` : jti;
}

/** `2026-11-22 21:49 UTC`: deterministic (the server does not know the reader's time zone). */
export function utcMinute(iso: string | number): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** `21:49:07 UTC` from epoch seconds. */
export function utcClock(epochSeconds: number): string {
  return `${new Date(epochSeconds * 1000).toISOString().slice(11, 19)} UTC`;
}

/** "N of M requests used today": the exact form the issue and the browser tests rely on. */
export function dailyUsageText(today: number, perDay: number): string {
  return `${today} of ${perDay} requests used today`;
}

/** "K of L requests in the last minute" plus when the next slot frees. */
export function minuteUsageText(minute: { used: number; limit: number; resetAt: number }): string {
  const head = `${minute.used} of ${minute.limit} requests in the last minute`;
  if (minute.used < minute.limit) return `${head}; a request is available now.`;
  return `${head}; the next slot frees at ${utcClock(minute.resetAt)}.`;
}

/** A metric value for tooltips and tables: 4 significant decimals, or an em dash for null. */
export function metricValue(v: number | null | undefined): string {
  return v === null || v === undefined || Number.isNaN(v) ? "—" : v.toFixed(4);
}

/** `2025-09-30` from an ISO date-time with an exchange offset (keeps the exchange's local date). */
export function isoDate(iso: string): string {
  return iso.slice(0, 10);
}
