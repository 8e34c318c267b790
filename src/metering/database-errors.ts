/**
 * Which database errors are the database's condition rather than a bug (DECISIONS §4: 503, not
 * 500): another process holding the lock, or storage refusing writes (a full disk, an I/O error,
 * a read-only file). The server answers those 503 with Retry-After and recovers by itself.
 */

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" ? code : "";
};

export const isBusyError = (err: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(codeOf(err));

const WRITE_FAILURES: [RegExp, string][] = [
  [/^SQLITE_FULL/, "disk full"],
  [/^SQLITE_IOERR/, "I/O error"],
  [/^SQLITE_READONLY/, "database is read-only"],
  [/^SQLITE_CANTOPEN/, "database file cannot be opened"],
];

/** A short description of a storage failure, e.g. `disk full (SQLITE_FULL)`; null for anything else. */
export function writeFailureOf(err: unknown): string | null {
  const code = codeOf(err);
  for (const [re, what] of WRITE_FAILURES) if (re.test(code)) return `${what} (${code})`;
  return null;
}
