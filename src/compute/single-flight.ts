/**
 * One computation per key at a time: a caller asking for a key already under way gets the same
 * promise. `keep` runs once with each value (to put it in a cache) before any caller sees it.
 * The map holds only keys in flight, so it is bounded by the requests being served.
 */
export class SingleFlight<K, V> {
  private readonly pending = new Map<K, Promise<V>>();

  run(key: K, start: () => Promise<V>, keep: (value: V) => void): Promise<V> {
    let p = this.pending.get(key);
    if (!p) {
      p = start().then(
        (value) => {
          this.pending.delete(key);
          keep(value);
          return value;
        },
        (err) => {
          this.pending.delete(key);
          throw err;
        },
      );
      this.pending.set(key, p);
    }
    return p;
  }
}
