/**
 * The development provider's storage (oidc-provider's adapter interface), bounded in entries and
 * bytes: every anonymous `GET /auth` makes an interaction that lives an hour, and the unbounded map
 * (swept in full on each write) grew 146 MB over 25,000 requests and held /health up for 3.5 s.
 * Past either bound the oldest entries go first (a development sign-in then simply starts over);
 * every operation is O(1) but revokeByGrantId, which walks one grant's own entries.
 * Nothing else grows with the requests (issue #41 item 5): after a full GC, `serve --dev` holds
 * 38,491 plain objects and 19-22 MB of JS heap at every count from 10,000 to 60,000; its RSS (104 MB
 * idle, 136 MB at 4,000, 170 at 20,000, 170-195 up to 100,000) is first-use code and garbage
 * awaiting a full collection, not entries: 148-161 MB with a GC at each count, 10,000 to 60,000.
 */
/** What oidc-provider stores: a JSON object; the fields read here are its own. */
type Payload = { [field: string]: unknown; uid?: unknown; grantId?: unknown; consumed?: number };

interface Entry {
  payload: Payload;
  expiresAt: number;
  bytes: number;
}

export interface StoreLimits {
  entries: number;
  bytes: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = { entries: 5000, bytes: 8 * 2 ** 20 };

/** One store per provider; `adapterClass()` is what oidc-provider's `adapter` option takes. */
export class OidcMemoryStore {
  private readonly entries = new Map<string, Entry>();
  private readonly byUid = new Map<string, string>();
  private readonly byGrant = new Map<string, Set<string>>();
  private used = 0;

  constructor(
    readonly limits: StoreLimits = DEFAULT_STORE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.used };
  }

  adapterClass(): new (model: string) => unknown {
    const store = this;
    return class {
      constructor(private readonly model: string) {}
      async upsert(id: string, payload: Payload, expiresIn: number) {
        store.set(`${this.model}:${id}`, payload, expiresIn);
      }
      async find(id: string) {
        return store.get(`${this.model}:${id}`);
      }
      async findByUserCode() {
        return undefined;
      }
      async findByUid(uid: string) {
        const key = store.byUid.get(`${this.model}:${uid}`);
        return key ? store.get(key) : undefined;
      }
      async consume(id: string) {
        const payload = store.get(`${this.model}:${id}`);
        if (payload) payload.consumed = Math.floor(store.now() / 1000);
      }
      async destroy(id: string) {
        store.delete(`${this.model}:${id}`);
      }
      async revokeByGrantId(grantId: string) {
        for (const key of [...(store.byGrant.get(grantId) ?? [])]) store.delete(key);
      }
    };
  }

  private get(key: string): Payload | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.delete(key);
      return undefined;
    }
    return e.payload;
  }

  private set(key: string, payload: Payload, expiresIn: number): void {
    this.delete(key); // re-inserted at the end: the newest
    const bytes = 2 * (key.length + JSON.stringify(payload).length) + 128;
    this.entries.set(key, { payload, expiresAt: this.now() + expiresIn * 1000, bytes });
    this.used += bytes;
    const model = key.slice(0, key.indexOf(":"));
    if (typeof payload.uid === "string") this.byUid.set(`${model}:${payload.uid}`, key);
    if (typeof payload.grantId === "string") {
      let keys = this.byGrant.get(payload.grantId);
      if (!keys) this.byGrant.set(payload.grantId, (keys = new Set()));
      keys.add(key);
    }
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.entries && this.used <= this.limits.bytes) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.used -= e.bytes;
    const model = key.slice(0, key.indexOf(":"));
    if (typeof e.payload.uid === "string" && this.byUid.get(`${model}:${e.payload.uid}`) === key)
      this.byUid.delete(`${model}:${e.payload.uid}`);
    if (typeof e.payload.grantId === "string") {
      const keys = this.byGrant.get(e.payload.grantId);
      keys?.delete(key);
      if (keys?.size === 0) this.byGrant.delete(e.payload.grantId);
    }
  }
}
