/**
 * How far a graph's communities are its stocks' sectors: the adjusted Rand index and the normalised
 * mutual information (arithmetic mean of the two entropies) between the two labellings, over the
 * nodes that have a sector — scikit-learn's adjusted_rand_score and normalized_mutual_info_score,
 * special cases included, within 1e-9 (sector-agreement-golden.test.ts, fixtures from
 * bench/sklearn/generate_sector_fixtures.py). Fewer than 2 labelled nodes have no agreement to
 * speak of (scikit-learn would call one sample a perfect match): both are null then.
 */

export interface SectorAgreement {
  /** Adjusted Rand index, in [-0.5, 1]; null with fewer than 2 labelled nodes. */
  ari: number | null;
  /** Normalised mutual information, in [0, 1]; null likewise. */
  nmi: number | null;
  /** Nodes with a sector (and a community). */
  labelled: number;
}

const EPS = 2.220446049250313e-16;

/** Dense ids 0…k−1 in order of first appearance. */
function dense<T>(values: readonly T[]): { ids: Int32Array; count: number } {
  const seen = new Map<T, number>();
  const ids = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let id = seen.get(values[i]!);
    if (id === undefined) seen.set(values[i]!, (id = seen.size));
    ids[i] = id;
  }
  return { ids, count: seen.size };
}

/** Cluster sizes. */
function sizes(ids: Int32Array, count: number): Float64Array {
  const out = new Float64Array(count);
  for (const id of ids) out[id]!++;
  return out;
}

/** Entropy (natural log) of a labelling with these cluster sizes, as scikit-learn's entropy(). */
function entropy(counts: Float64Array, n: number): number {
  if (counts.length === 1) return 0;
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * (Math.log(c) - Math.log(n));
  return h;
}

/**
 * `community[i]` and `sector[i]` of node i: a node counts when its sector is not null and its
 * community is a non-negative id.
 */
export function sectorAgreement(community: ArrayLike<number>, sector: readonly (string | null)[]): SectorAgreement {
  const pred: number[] = [];
  const truth: string[] = [];
  for (let i = 0; i < sector.length; i++) {
    const s = sector[i];
    const c = community[i];
    if (s === null || s === undefined || c === undefined || !(c >= 0)) continue;
    pred.push(c);
    truth.push(s);
  }
  const n = truth.length;
  if (n < 2) return { ari: null, nmi: null, labelled: n };
  const t = dense(truth);
  const p = dense(pred);
  const cells = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const key = t.ids[i]! * p.count + p.ids[i]!;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const a = sizes(t.ids, t.count);
  const b = sizes(p.ids, p.count);
  return { ari: adjustedRandIndex(t.ids, p.ids), nmi: nmi(cells, a, b, n, p.count), labelled: n };
}

/**
 * sklearn.metrics.adjusted_rand_score of two labelings of the same nodes, from the pair confusion
 * matrix in exact integers; 1 when neither labeling separates a pair the other joins (also for
 * two all-singleton or two one-cluster labelings, as sklearn). Labels are small non-negative ints.
 */
export function adjustedRandIndex(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ka = 0;
  let kb = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] >= ka) ka = a[i] + 1;
    if (b[i] >= kb) kb = b[i] + 1;
  }
  const table = new Float64Array(ka * kb);
  const rowSum = new Float64Array(ka);
  const colSum = new Float64Array(kb);
  for (let i = 0; i < n; i++) {
    table[a[i] * kb + b[i]]++;
    rowSum[a[i]]++;
    colSum[b[i]]++;
  }
  let sumSquares = 0;
  for (const c of table) sumSquares += c * c;
  let rowDot = 0; // Σ_ij n_ij · colSum_j
  let colDot = 0; // Σ_ij n_ij · rowSum_i
  for (let i = 0; i < ka; i++) {
    for (let j = 0; j < kb; j++) {
      const c = table[i * kb + j];
      rowDot += c * colSum[j];
      colDot += c * rowSum[i];
    }
  }
  const tp = sumSquares - n;
  const fp = rowDot - sumSquares;
  const fn = colDot - sumSquares;
  const tn = n * n - fp - fn - sumSquares;
  if (fn === 0 && fp === 0) return 1;
  return (2 * (tp * tn - fn * fp)) / ((tp + fn) * (fn + tn) + (tp + fp) * (fp + tn));
}

/** scikit-learn's normalized_mutual_info_score with average_method="arithmetic", term by term as it sums. */
function nmi(cells: Map<number, number>, a: Float64Array, b: Float64Array, n: number, nPred: number): number {
  if (a.length === 1 && b.length === 1) return 1;
  let mi = 0;
  if (a.length > 1 && b.length > 1) {
    const logN = Math.log(n);
    for (const [key, v] of cells) {
      const i = Math.floor(key / nPred);
      const j = key - i * nPred;
      const c = v / n;
      const logOuter = -Math.log(a[i]! * b[j]!) + logN + logN;
      const term = c * (Math.log(v) - logN) + c * logOuter;
      if (Math.abs(term) >= EPS) mi += term;
    }
    mi = Math.max(mi, 0);
  }
  if (mi === 0) return 0;
  return mi / ((entropy(a, n) + entropy(b, n)) / 2);
}
