/**
 * Community labels that persist across the as-ofs of a rolling request: Louvain numbers each
 * date's communities afresh, so each date's communities are matched to the previous date's
 * labels, greedily by overlap (deterministic under ties; never merges, a split keeps the label on
 * its larger part, labels are never reused). The rule in full: docs/engine.md § Community tracking.
 */
export class CommunityTracker {
  /** Label of each input symbol at the last as-of with communities; -1 when absent there. */
  private readonly prev: Int32Array;
  private started = false;
  private next = 0;

  constructor(nSymbols: number) {
    this.prev = new Int32Array(nSymbols).fill(-1);
  }

  /**
   * nodes: input-symbol index of each graph node; community/count: Louvain's partition.
   * Returns the tracked label of each node.
   */
  track(nodes: readonly number[], community: Int32Array, count: number): Int32Array {
    const labels = new Int32Array(nodes.length);
    const toLabel = new Int32Array(count).fill(-1);
    if (this.started) {
      const overlap = new Map<number, number>(); // key: previous label * count + current id
      nodes.forEach((i, p) => {
        const l = this.prev[i];
        if (l >= 0) {
          const key = l * count + community[p];
          overlap.set(key, (overlap.get(key) ?? 0) + 1);
        }
      });
      const pairs = [...overlap].map(([key, size]) => ({ l: Math.floor(key / count), c: key % count, size }));
      pairs.sort((a, b) => b.size - a.size || a.l - b.l || a.c - b.c);
      const usedLabel = new Set<number>();
      for (const { l, c } of pairs) {
        if (toLabel[c] !== -1 || usedLabel.has(l)) continue;
        toLabel[c] = l;
        usedLabel.add(l);
      }
    }
    for (let c = 0; c < count; c++) if (toLabel[c] === -1) toLabel[c] = this.next++;
    this.prev.fill(-1);
    nodes.forEach((i, p) => {
      labels[p] = toLabel[community[p]];
      this.prev[i] = labels[p];
    });
    this.started = true;
    return labels;
  }
}
