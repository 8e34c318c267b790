/**
 * The series cache: each symbol's buckets at one (source, wanted) interval pair, and assembled
 * series, least recently used first out, bounded in bytes. A process holds one per place that loads
 * series — each compute thread, or the event loop for PostgreSQL — and splits its bound between them
 * (`--series-cache-mb`, docs/api.md § Series cache), so the process as a whole stays inside it. Keyed
 * by the data version: an import anywhere empties it at the next load.
 */

interface Held {
  value: unknown;
  bytes: number;
}

export class SeriesCache {
  // A Map iterates in insertion order, so re-inserting on access keeps the oldest first.
  private readonly held = new Map<string, Held>();
  private total = 0;
  private version = Number.NaN;

  constructor(private bound: number) {}

  /** Bytes held now. */
  bytes(): number {
    return this.total;
  }

  /** Entries held now (for tests). */
  size(): number {
    return this.held.size;
  }

  /** The bound in bytes; a lower one evicts at once. */
  setBound(bytes: number): void {
    this.bound = bytes;
    this.evict();
  }

  /** Empties the cache when `version` is not the one its entries were read at. */
  at(version: number): void {
    if (version === this.version) return;
    this.held.clear();
    this.total = 0;
    this.version = version;
  }

  get<T>(key: string): T | undefined {
    const hit = this.held.get(key);
    if (!hit) return undefined;
    this.held.delete(key);
    this.held.set(key, hit);
    return hit.value as T;
  }

  /** Keeps `value` (about `bytes` of memory with its key) as most recently used; larger than the bound alone, not kept. */
  set(key: string, value: unknown, bytes: number): void {
    const old = this.held.get(key);
    if (old) {
      this.held.delete(key);
      this.total -= old.bytes;
    }
    const size = bytes + 2 * key.length + ENTRY_OVERHEAD;
    if (size > this.bound) return;
    this.held.set(key, { value, bytes: size });
    this.total += size;
    this.evict();
  }

  private evict(): void {
    for (const [k, e] of this.held) {
      if (this.total <= this.bound) break;
      this.held.delete(k);
      this.total -= e.bytes;
    }
  }
}

/** Per entry beyond its arrays and key: the map slot, the entry and the arrays' headers. */
const ENTRY_OVERHEAD = 256;
