/**
 * Space left on the filesystem holding the SQLite file, for the disk alerts: SQLite answers
 * SQLITE_FULL only once nothing is left, so /metrics says how much is left before then.
 */
import { statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";

export interface FilesystemSpace {
  /** Bytes an unprivileged process may still write (root's reserve excluded, as for the service's user). */
  availBytes: number;
  sizeBytes: number;
}

/** A reader of the space around `dbPath` (null for :memory:, or when the folder cannot be read). */
export function filesystemSpace(dbPath: string): () => FilesystemSpace | null {
  if (dbPath === ":memory:") return () => null;
  const folder = dirname(resolve(dbPath));
  return () => {
    try {
      const s = statfsSync(folder);
      return { availBytes: s.bavail * s.bsize, sizeBytes: s.blocks * s.bsize };
    } catch {
      return null;
    }
  };
}
