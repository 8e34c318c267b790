/**
 * A value from a user's file as it appears in a message: control and bidirectional-format
 * characters escaped (a field could otherwise clear the screen or print a fake "All rows imported"
 * on the operator's terminal), and cut to SHOWN_MAX characters with the full length said.
 */
const SHOWN_MAX = 40;
// C0 and C1 controls, DEL, and the bidirectional marks, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function safe(raw: string): string {
  const cut = raw.length > SHOWN_MAX ? raw.slice(0, SHOWN_MAX) : raw;
  const text = cut.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return raw.length > SHOWN_MAX ? `${text}… (${raw.length} characters)` : text;
}

/** Quoted: `'2024-13-01'`. */
export function shownValue(raw: string): string {
  const s = safe(raw);
  return raw.length > SHOWN_MAX ? `'${s.replace(/… \(/, "…' (")}` : `'${s}'`;
}

/** A header's column names, comma-separated, each shown safely; at most 20 of them. */
export function shownColumns(header: readonly string[]): string {
  const names = header.slice(0, 20).map(safe).join(",");
  return header.length > 20 ? `${names},… (${header.length} columns)` : names;
}
