/**
 * Bounded least-recently-used cache for computed chart results, keyed by a string (e.g. the
 * canonical parameters plus a data version). Bounded by entry count and, optionally, by a
 * total size estimate so a few huge rolling results cannot hold the process's memory.
 */

export interface ResultCacheOptions<V> {
  /** Upper bound on the sum of sizeOf over all entries (e.g. bytes of a JSON string). */
  maxSize?: number;
  /** Size estimate of one value; defaults to the length of a string value, else 1. */
  sizeOf?: (value: V) => number;
}

export class ResultCache<V> {
  // A Map iterates in insertion order, so re-inserting on access keeps the oldest first.
  private readonly map = new Map<string, { value: V; size: number }>();
  private total = 0;
  private readonly maxSize: number;
  private readonly sizeOf: (value: V) => number;

  constructor(
    private readonly maxEntries: number,
    opts: ResultCacheOptions<V> = {},
  ) {
    if (!(maxEntries >= 1)) throw new RangeError("ResultCache: maxEntries must be at least 1");
    this.maxSize = opts.maxSize ?? Infinity;
    this.sizeOf = opts.sizeOf ?? ((v) => (typeof v === "string" ? v.length : 1));
  }

  /** The value for key (marking it most recently used), or undefined. */
  get(key: string): V | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  /** Stores value as most recently used, evicting the least recently used beyond the bounds.
   *  A value larger than maxSize on its own is not stored. */
  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.maxSize) return;
    this.map.set(key, { value, size });
    this.total += size;
    while (this.map.size > this.maxEntries || this.total > this.maxSize) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): boolean {
    const hit = this.map.get(key);
    if (hit === undefined) return false;
    this.map.delete(key);
    this.total -= hit.size;
    return true;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** Sum of the size estimates of the entries held. */
  get totalSize(): number {
    return this.total;
  }
}
