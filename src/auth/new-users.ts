/**
 * The request path's view of a user (docs/api.md § Tokens: a first-time user is a user with no rows —
 * the defaults, everything remaining; whether a user is new never changes the headers or makes the
 * request wait on a lock). It only reads; creating a first-time user (or filling a missing email)
 * is queued and written shortly after, without waiting for a lock another process holds: on
 * SQLite, creating the row on the event loop stalled every request (and /health) for the busy
 * timeout, 712 ms, while another process held the write lock.
 */
import { isSettled } from "./auth-policy.ts";
import type { AuthStore, UserRecord } from "./auth-store.ts";

const FIRST_TIME: Flags = {
  disabled: false,
  perMinute: null,
  perDay: null,
  planPerMinute: null,
  planPerDay: null,
  plan: null,
  admin: false,
};

/** Users waiting for their row, at most; past it a first use writes at once, as before. */
const MAX_PENDING = 10_000;
const RETRY_MS = 500;

type Flags = Pick<UserRecord, "disabled" | "perMinute" | "perDay" | "planPerMinute" | "planPerDay" | "plan" | "admin">;

/** A live request's caller: refused when its token is revoked, else its flags and limits. */
export type Caller = { revoked: true } | { revoked: false; user: Flags };

export interface NewUsers {
  /**
   * The user's flags and limits, read with whether the token's `jti` is revoked (one statement); a
   * first use is queued for writing, unless the token is revoked.
   */
  ensure(id: string, email: string | undefined, jti?: string): Promise<Caller>;
  /** Writes what is queued (the timer does this; tests and shutdown call it). */
  flush(): Promise<void>;
  pending(): number;
}

/**
 * `firstTime`: the flags of a user with no row yet — no overrides, the default plan's limits
 * (`free`'s row when an operator redefined it).
 */
export function createNewUsers(store: AuthStore, now: () => number, firstTime: () => Promise<Flags> = async () => FIRST_TIME): NewUsers {
  const queued = new Map<string, string | undefined>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let flushing: Promise<void> | null = null;

  const schedule = (ms: number) => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
    timer.unref?.();
  };

  async function writeAll(): Promise<void> {
    for (const [id, email] of queued) {
      try {
        await store.ensureUser(id, email, now(), { noWait: true });
        queued.delete(id);
      } catch {
        schedule(RETRY_MS); // locked or unavailable: the next attempt writes it
        return;
      }
    }
  }

  function flush(): Promise<void> {
    flushing ??= writeAll().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    async ensure(id, email, jti) {
      const { user: known, revoked } = await store.caller(id, jti);
      if (revoked) return { revoked: true };
      if (isSettled(known, email)) return { revoked: false, user: known };
      if (queued.size >= MAX_PENDING && !queued.has(id)) return { revoked: false, user: await store.ensureUser(id, email, now()) };
      queued.set(id, queued.get(id) ?? email);
      schedule(0);
      return { revoked: false, user: known ?? (await firstTime()) };
    },
    flush,
    pending: () => queued.size,
  };
}
