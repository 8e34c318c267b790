/**
 * The first step of a graceful stop. Bun's `server.stop(false)` waits for requests it is answering
 * but closes, unread, every connection it has not yet read a request from: a request a client had
 * already sent when SIGTERM came was reset (a SIGSTOP'd server shows it every time). So the socket
 * stays open, answering 503, until requests stop arriving: `quietMs` with none, read after at least
 * two more event-loop turns, at most `maxMs` under a load that never pauses.
 */
export interface QuietWindow {
  /** Requests seen so far while draining (any counter that moves when one arrives). */
  seen(): number;
  quietMs: number;
  maxMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

export const DRAIN_QUIET_MS = 20;
export const DRAIN_MAX_MS = 1000;

export async function waitForQuiet(w: QuietWindow): Promise<void> {
  const now = w.now ?? (() => performance.now());
  const sleep = w.sleep ?? Bun.sleep;
  const end = now() + w.maxMs;
  for (;;) {
    const before = w.seen();
    await sleep(w.quietMs);
    // A starved process may run this timer before the I/O that became ready with it: two more
    // turns of the loop read whatever the kernel already holds.
    await sleep(1);
    await sleep(1);
    if (w.seen() === before || now() >= end) return;
  }
}
