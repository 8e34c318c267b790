/**
 * Binary min-heap of (key, sequence) -> (node, pred), the entry shape of networkx's Dijkstra heap
 * `(dist, next(counter), pred, v)`. Equal keys pop in push order, which makes the search order
 * (and so the tie handling) identical to networkx.
 */
export class MinHeap {
  private key: Float64Array;
  private seq: Float64Array;
  private node: Int32Array;
  private pred: Int32Array;
  private counter = 0;
  size = 0;

  constructor(capacity: number) {
    this.key = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.node = new Int32Array(capacity);
    this.pred = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
    this.counter = 0;
  }

  private less(a: number, b: number): boolean {
    return this.key[a] < this.key[b] || (this.key[a] === this.key[b] && this.seq[a] < this.seq[b]);
  }

  private swap(a: number, b: number): void {
    const { key, seq, node, pred } = this;
    let t = key[a]; key[a] = key[b]; key[b] = t;
    t = seq[a]; seq[a] = seq[b]; seq[b] = t;
    let u = node[a]; node[a] = node[b]; node[b] = u;
    u = pred[a]; pred[a] = pred[b]; pred[b] = u;
  }

  private grow(): void {
    const cap = this.key.length * 2;
    const k = new Float64Array(cap); k.set(this.key); this.key = k;
    const s = new Float64Array(cap); s.set(this.seq); this.seq = s;
    const nd = new Int32Array(cap); nd.set(this.node); this.node = nd;
    const p = new Int32Array(cap); p.set(this.pred); this.pred = p;
  }

  push(key: number, node: number, pred: number): void {
    if (this.size === this.key.length) this.grow();
    let i = this.size++;
    this.key[i] = key;
    this.seq[i] = this.counter++;
    this.node[i] = node;
    this.pred[i] = pred;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  topKey(): number {
    return this.key[0];
  }

  topPred(): number {
    return this.pred[0];
  }

  /** Removes the smallest entry and returns its node. */
  pop(): number {
    const top = this.node[0];
    const last = --this.size;
    if (last > 0) {
      this.swap(0, last);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < last && this.less(l, m)) m = l;
        if (r < last && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}
