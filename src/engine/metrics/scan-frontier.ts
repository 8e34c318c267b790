/**
 * Dijkstra frontier for dense graphs: one slot per node, the minimum found by a linear scan
 * (O(n) per pop beats a heap's O(log m) pushes once most pairs are edges). It pops in the same
 * order as MinHeap: a node's only live heap entry is its latest push, which has the smallest
 * key of its entries, so "minimum (key, push sequence) over queued nodes" is the heap's order.
 */
export class ScanFrontier {
  private key: Float64Array;
  private seq: Float64Array;
  private pred: Int32Array;
  private queued: Uint8Array;
  private counter = 0;
  private top = -1;
  size = 0;

  constructor(n: number) {
    this.key = new Float64Array(n);
    this.seq = new Float64Array(n);
    this.pred = new Int32Array(n);
    this.queued = new Uint8Array(n);
  }

  clear(): void {
    this.queued.fill(0);
    this.size = 0;
    this.counter = 0;
    this.top = -1;
  }

  /** Records a (shorter) tentative distance for node; replaces its previous entry. */
  push(key: number, node: number, pred: number): void {
    this.key[node] = key;
    this.seq[node] = this.counter++;
    this.pred[node] = pred;
    if (!this.queued[node]) {
      this.queued[node] = 1;
      this.size++;
    }
    this.top = -1;
  }

  private findTop(): number {
    if (this.top < 0) {
      const { key, seq, queued } = this;
      let best = -1;
      for (let v = 0; v < queued.length; v++) {
        if (!queued[v]) continue;
        if (best < 0 || key[v] < key[best] || (key[v] === key[best] && seq[v] < seq[best])) best = v;
      }
      this.top = best;
    }
    return this.top;
  }

  topKey(): number {
    return this.key[this.findTop()];
  }

  topPred(): number {
    return this.pred[this.findTop()];
  }

  /** Removes the smallest entry and returns its node. */
  pop(): number {
    const v = this.findTop();
    this.queued[v] = 0;
    this.size--;
    this.top = -1;
    return v;
  }
}
