/**
 * One computation per key at a time: a caller asking for a key already under way gets the same
 * result. `keep` runs once with each value (to put it in a cache) before any caller sees it.
 * A caller whose signal aborts stops waiting at once (its promise rejects with the signal's
 * reason); the computation itself is aborted only when every caller waiting for it has gone, so a
 * client that disconnects never cancels another client's identical request.
 * The map holds only keys in flight, so it is bounded by the requests being served.
 */
interface Flight<V> {
  promise: Promise<V>;
  controller: AbortController;
  waiting: number;
}

export class SingleFlight<K, V> {
  private readonly pending = new Map<K, Flight<V>>();

  run(key: K, start: (signal: AbortSignal) => Promise<V>, keep: (value: V) => void, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let flight = this.pending.get(key);
    if (!flight) {
      const controller = new AbortController();
      const promise = start(controller.signal).then(
        (value) => {
          if (this.pending.get(key) === flight) this.pending.delete(key);
          keep(value);
          return value;
        },
        (err) => {
          if (this.pending.get(key) === flight) this.pending.delete(key);
          throw err;
        },
      );
      flight = { promise, controller, waiting: 0 };
      this.pending.set(key, flight);
    }
    const f = flight;
    f.waiting++;
    if (!signal) return f.promise;
    return new Promise<V>((resolve, reject) => {
      const leave = () => {
        f.waiting--;
        if (f.waiting === 0) {
          // Nobody waits for it any more: the next caller of this key starts afresh.
          if (this.pending.get(key) === f) this.pending.delete(key);
          f.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      signal.addEventListener("abort", leave, { once: true });
      f.promise.then(
        (v) => {
          signal.removeEventListener("abort", leave);
          resolve(v);
        },
        (e) => {
          signal.removeEventListener("abort", leave);
          reject(e);
        },
      );
    });
  }
}
