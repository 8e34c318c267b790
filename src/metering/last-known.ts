/**
 * The last meter state this process saw per user, for the rate-limit headers of a 503 when the
 * database cannot be read (PostgreSQL down: even peek fails). Per process and bounded in bytes,
 * least recently seen dropped first; a user this process never saw gets no headers. The figures
 * are as of that moment (the headers carry no newer truth), which is what a client backing off needs.
 */
import type { MeterState } from "./windows.ts";

/** 1 MiB: about 5,000 users at 200 bytes each (the id's UTF-16 plus the state object). */
export const LAST_KNOWN_BYTES = 2 ** 20;
const ENTRY_BYTES = 160;

export interface LastKnown {
  remember(userId: string, state: MeterState): void;
  get(userId: string): MeterState | null;
  bytes(): number;
}

export function createLastKnown(maxBytes = LAST_KNOWN_BYTES): LastKnown {
  // A Map iterates in insertion order: deleting before setting makes the first key the least recent.
  const states = new Map<string, MeterState>();
  let used = 0;
  const weight = (userId: string) => 2 * userId.length + ENTRY_BYTES;
  return {
    remember(userId, state) {
      const { retryAfter: _, ...kept } = state;
      if (states.delete(userId)) used -= weight(userId);
      states.set(userId, kept);
      used += weight(userId);
      for (const oldest of states.keys()) {
        if (used <= maxBytes) break;
        states.delete(oldest);
        used -= weight(oldest);
      }
    },
    get: (userId) => states.get(userId) ?? null,
    bytes: () => used,
  };
}
