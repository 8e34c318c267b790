/**
 * Pending sign-ins a callback has already used, remembered until their cookie expires, so each is
 * used once: a replayed callback made the server exchange a code with the provider, client secret
 * attached, every time (200 callbacks with one cookie, 200 token-endpoint calls). Bounded: at most
 * `max` states (43 characters and an expiry each, about 1 MB at the default); when every one is
 * still unexpired, a callback is refused (503) rather than a spent state forgotten. Per process:
 * behind a load balancer a state can be spent once on each instance.
 */
export class SpentSignIns {
  /** State → when its cookie expires (epoch ms); insertion order is expiry order (one fixed lifetime). */
  private readonly spent = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  /** "fresh": first use, now spent; "spent": used before; "full": no room to remember it. */
  spend(state: string): "fresh" | "spent" | "full" {
    const t = this.now();
    const until = this.spent.get(state);
    if (until !== undefined && until > t) return "spent";
    for (const [s, exp] of this.spent) {
      if (exp > t) break;
      this.spent.delete(s);
    }
    if (this.spent.size >= this.max) return "full";
    this.spent.set(state, t + this.ttlMs);
    return "fresh";
  }
}

/**
 * Callbacks per client per minute (a fixed window): each callback with a fresh sign-in still costs
 * a token-endpoint call, so one client cannot make the server call the provider without end. Only
 * callbacks carrying a pending sign-in are counted (callback.ts), per client address
 * (src/http/client-address.ts). At most `maxClients` addresses are tracked; beyond them,
 * callbacks wait for a window.
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
