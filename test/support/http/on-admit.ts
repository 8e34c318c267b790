/**
 * Resolves when the server's meter is asked to admit `userId`'s next request: from then on that
 * request is at the meter (waiting for its lock, if another process holds it), which a test orders
 * its next step after. The meter is the server's own; only the call is observed.
 */
import type { Harness } from "./harness.ts";

export function onAdmit(h: Harness, userId: string): Promise<void> {
  const limiter = h.server.stores.limiter;
  const admit = limiter.admit;
  return new Promise((resolve) => {
    limiter.admit = (req) => {
      if (req.userId !== userId) return admit(req);
      limiter.admit = admit;
      resolve();
      return admit(req);
    };
  });
}
