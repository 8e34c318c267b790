/**
 * A memo of pure results by string key, bounded in bytes (the keys dominate: the caller says how
 * many bytes a value holds beyond its key), oldest entries dropped first. For answers the live
 * path would otherwise recompute on every request from the same input (a query string, a request
 * key); nothing an anonymous caller sends reaches one before it is authenticated.
 */
export class Memo<V> {
  private bytes = 0;
  private readonly entries = new Map<string, { value: V; bytes: number }>();

  constructor(
    private readonly maxBytes: number,
    private readonly valueBytes: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Keeps `value` for `key` (replacing what was there) and returns it. */
  set(key: string, value: V): V {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    // Two bytes per character at worst, plus the map's own slot.
    const bytes = 2 * key.length + this.valueBytes(value) + 64;
    if (bytes > this.maxBytes) return value;
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Entries and bytes held (for tests and /metrics). */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
