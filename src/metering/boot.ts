/**
 * Which server process admitted a request. Every admitted row carries the id of the process that
 * admitted it, `host:pid:random`, so a starting process can tell the open rows of a process that
 * died (refund them) from those of one still serving (`serve --workers N`, or several processes
 * on one database file, which WAL confines to one host).
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

export const newBootId = (): string => `${hostname()}:${process.pid}:${randomUUID()}`;

export interface BootParts {
  host: string;
  pid: number;
}

/** The host and pid of a boot id; null when it is not one (an id written by something else). */
export function parseBootId(id: string): BootParts | null {
  const m = /^(.*):(\d+):[0-9a-f-]{36}$/.exec(id);
  return m ? { host: m[1]!, pid: Number(m[2]) } : null;
}

/** Whether a process with this pid exists here (EPERM: it does, owned by someone else). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether the process behind `id` is certainly gone, seen from the process `self`: on this host,
 * its pid no longer exists or is now ours (a container restarted with the same pid). A process on
 * another host, or an id that is not a boot id, cannot be checked: the caller falls back to age.
 */
export function bootIsGone(id: string, self: string): boolean {
  if (id === self) return false;
  const boot = parseBootId(id);
  const me = parseBootId(self);
  if (!boot || !me || boot.host !== me.host) return false;
  return boot.pid === me.pid || !pidExists(boot.pid);
}
