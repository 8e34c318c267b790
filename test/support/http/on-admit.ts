/**
 * Resolves when the server's meter is asked to admit `userId`'s next request: from then on that
 * request is at the meter (waiting for its lock, if another process holds it), which a test orders
 * its next step after. The meter is the server's own; only the call is observed.
 */
import type { Harness } from "./harness.ts";

export function onAdmit(h: Harness, userId: string): Promise<void> {
  const meter = h.server.stores.meter;
  const admit = meter.admit;
  return new Promise((resolve) => {
    meter.admit = (req) => {
      if (req.userId !== userId) return admit(req);
      meter.admit = admit;
      resolve();
      return admit(req);
    };
  });
}
