/**
 * The billing export (docs/operator.md § Billing export): one record per counted request — admitted,
 * answered and not refunded (a 5xx or a client gone is refunded, counted 0, and left out) — as
 * CloudEvents 1.0 JSON lines or CSV, produced page by page (PAGE rows at a time) so memory stays
 * bounded whatever the range. An event's `id` is its request_log row id, which never repeats
 * (retention keeps the newest row, PostgreSQL's identity never goes back), and its `source` names
 * this deployment: re-sending an export is idempotent for a consumer that deduplicates on
 * (source, id), as CloudEvents asks.
 */
import { StatusError } from "../status-error.ts";
import { idCeiling, idFloor } from "./log-ids.ts";
import type { BilledRow, UsageExportPort } from "./usage-export-port.ts";
import { DAY_MS } from "./windows.ts";

export type ExportFormat = "cloudevents" | "csv";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["cloudevents", "csv"];

/** Rows read per statement: ~1 MB of lines, a few ms of a statement. */
const PAGE = 5000;

/** The event type a consumer's meter matches on. */
export const EVENT_TYPE = "graph-stats.request";

export interface ExportRange {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `--since`/`--until` (UTC days, both inclusive; until defaults to today) as a range; a refusal names the mistake. */
export function exportRange(since: string | undefined, until: string | undefined, now: number): ExportRange {
  const day = (name: string, v: string) => {
    const t = DAY.test(v) ? Date.parse(`${v}T00:00:00Z`) : Number.NaN;
    if (!Number.isFinite(t) || new Date(t).toISOString().slice(0, 10) !== v)
      throw new StatusError(400, "BAD_REQUEST", `${name} must be a UTC day YYYY-MM-DD, got '${v.slice(0, 40)}'`);
    return t;
  };
  if (since === undefined) throw new StatusError(400, "BAD_REQUEST", "since is required (YYYY-MM-DD, UTC)");
  const from = day("since", since);
  const to = until === undefined ? Math.floor(now / DAY_MS) * DAY_MS + DAY_MS : day("until", until) + DAY_MS;
  if (to <= from) throw new StatusError(400, "BAD_REQUEST", `until (${until}) is before since (${since})`);
  return { from, to };
}

export function exportFormat(v: string | undefined): ExportFormat {
  const f = v ?? "cloudevents";
  if (!(EXPORT_FORMATS as readonly string[]).includes(f))
    throw new StatusError(400, "BAD_REQUEST", `format must be one of ${EXPORT_FORMATS.join(", ")}, got '${f.slice(0, 40)}'`);
  return f as ExportFormat;
}

/** The counted rows of the range, page by page, in id order. */
export async function* billedRows(port: UsageExportPort, range: ExportRange): AsyncGenerator<BilledRow[]> {
  const b = await port.ids.bounds();
  if (!b) return;
  let after = (await idFloor(port.ids, range.from)) - 1;
  const toId = await idCeiling(port.ids, range.to);
  for (;;) {
    const rows = await port.page(after, toId, range.from, range.to, PAGE);
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.id;
    if (rows.length < PAGE) return;
  }
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);

/** One CloudEvents 1.0 structured-mode JSON event (no trailing newline). */
export function cloudEvent(r: BilledRow, source: string): string {
  return JSON.stringify({
    specversion: "1.0",
    id: String(r.id),
    source,
    type: EVENT_TYPE,
    subject: r.userId,
    time: new Date(r.ts).toISOString(),
    datacontenttype: "application/json",
    data: {
      status: r.status,
      cost_estimate_ms: round(r.costMs),
      duration_ms: round(r.durationMs),
      plan: r.plan ?? "free",
      request_id: r.requestId,
    },
  });
}

export const CSV_HEADER = "id,time,subject,status,cost_estimate_ms,duration_ms,plan,request_id";

/** RFC 4180: quoted when it holds a comma, quote or line break. */
const csvField = (v: string | number | null) => {
  const s = v === null ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function csvLine(r: BilledRow): string {
  return [r.id, new Date(r.ts).toISOString(), r.userId, r.status, round(r.costMs), round(r.durationMs), r.plan ?? "free", r.requestId]
    .map(csvField)
    .join(",");
}

/** The export as text chunks, one per page (the CSV's header first), each ending in a newline. */
export async function* exportChunks(
  port: UsageExportPort,
  range: ExportRange,
  format: ExportFormat,
  source: string,
): AsyncGenerator<string> {
  if (format === "csv") yield `${CSV_HEADER}\n`;
  for await (const rows of billedRows(port, range)) {
    let chunk = "";
    for (const r of rows) chunk += `${format === "csv" ? csvLine(r) : cloudEvent(r, source)}\n`;
    yield chunk;
  }
}

/** The settings key of this deployment's id, the events' `source`. */
export const DEPLOYMENT_KEY = "deployment_id";

/** `urn:graph-stats:<deployment id>`: one id per database, made by the first export and kept. */
export async function exportSource(settings: {
  getSetting(k: string): Promise<string | null>;
  insertSettingIfAbsent(k: string, v: string): Promise<boolean>;
}): Promise<string> {
  let id = await settings.getSetting(DEPLOYMENT_KEY);
  if (id === null) {
    await settings.insertSettingIfAbsent(DEPLOYMENT_KEY, crypto.randomUUID());
    id = (await settings.getSetting(DEPLOYMENT_KEY))!;
  }
  return `urn:graph-stats:${id}`;
}

/** The export as the CLI and the admin endpoint use it, over one database. */
export interface UsageExport {
  chunks(range: ExportRange, format: ExportFormat): AsyncGenerator<string>;
}

export function createUsageExport(port: UsageExportPort, settings: Parameters<typeof exportSource>[0]): UsageExport {
  return {
    async *chunks(range, format) {
      yield* exportChunks(port, range, format, await exportSource(settings));
    },
  };
}
