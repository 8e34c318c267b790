/**
 * Sign-in callbacks per client per minute (a fixed window): each callback with a fresh pending
 * sign-in costs a call to the provider's token endpoint, so one client cannot make the server call
 * the provider without end. Only callbacks carrying a pending sign-in are counted (callback.ts), per
 * client address (src/http/client-address.ts). At most `maxClients` addresses are tracked; beyond
 * them, callbacks wait for a window to end.
 */
export class CallbackRate {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly now: () => number,
    private readonly perMinute = 20,
    private readonly maxClients = 10_000,
  ) {}

  /** Seconds to wait, or 0 when this callback may go on. */
  take(client: string): number {
    const t = this.now();
    const w = this.windows.get(client);
    if (w && t - w.start < 60_000) {
      if (w.count >= this.perMinute) return Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
      w.count++;
      return 0;
    }
    if (w) this.windows.delete(client);
    for (const [c, x] of this.windows) {
      if (t - x.start < 60_000) break;
      this.windows.delete(c);
    }
    if (this.windows.size >= this.maxClients) return 60;
    this.windows.set(client, { start: t, count: 1 });
    return 0;
  }
}
