/**
 * Portfolio weights per as-of (issue 26): hierarchical risk parity (López de Prado 2016,
 * "Building Diversified Portfolios that Outperform Out of Sample"), with equal and
 * inverse-variance weights as baselines, and the turnover between two as-ofs. Definitions and
 * the ½ convention of turnover: docs/engine.md § Portfolio weights.
 */

/** Sample covariance (divisor L−1, as numpy's `cov` and pandas' `DataFrame.cov`) of the values start … start+L−1. */
export function sampleCovariance(series: Float64Array[], start: number, L: number): Float64Array {
  const n = series.length;
  const x = series.map((s) => {
    let mean = 0;
    for (let k = 0; k < L; k++) mean += s[start + k];
    mean /= L;
    return Float64Array.from({ length: L }, (_, k) => s[start + k] - mean);
  });
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = x[i];
    for (let j = i; j < n; j++) {
      const b = x[j];
      let s = 0;
      for (let k = 0; k < L; k++) s += a[k] * b[k];
      s /= L - 1;
      c[i * n + j] = s;
      c[j * n + i] = s;
    }
  }
  return c;
}

export function equalWeights(n: number): Float64Array {
  return new Float64Array(n).fill(1 / n);
}

function checkVariances(cov: Float64Array, n: number, what: string): void {
  for (let i = 0; i < n; i++) {
    const v = cov[i * n + i];
    if (!(v > 0 && v < Infinity)) throw new RangeError(`${what}: variance of asset ${i} is ${v}, must be positive and finite`);
  }
}

/** w_i = (1/σ_ii) / Σ_j (1/σ_jj): the paper's getIVP. */
export function inverseVarianceWeights(cov: Float64Array, n: number): Float64Array {
  checkVariances(cov, n, "inverseVarianceWeights");
  const w = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) {
    w[i] = 1 / cov[i * n + i];
    s += w[i];
  }
  for (let i = 0; i < n; i++) w[i] /= s;
  return w;
}

/** The paper's getClusterVar: w'Σw for the inverse-variance weights w within the items order[lo … hi−1]. */
function clusterVariance(cov: Float64Array, n: number, order: Int32Array, lo: number, hi: number, w: Float64Array): number {
  let s = 0;
  for (let q = lo; q < hi; q++) {
    w[q] = 1 / cov[order[q] * n + order[q]];
    s += w[q];
  }
  for (let q = lo; q < hi; q++) w[q] /= s;
  let v = 0;
  for (let p = lo; p < hi; p++) {
    const row = order[p] * n;
    let r = 0;
    for (let q = lo; q < hi; q++) r += cov[row + order[q]] * w[q];
    v += w[p] * r;
  }
  return v;
}

/**
 * HRP weights, indexed by asset, from the n×n covariance and the quasi-diagonal order (the
 * linkage's leaf order). Recursive bisection as the paper's getRecBipart: each list splits into
 * its first ⌊len/2⌋ items and the rest, and the halves get α = 1 − V₁/(V₁+V₂) and 1 − α of the
 * parent's weight. Non-negative, summing to 1.
 */
export function hrpWeights(cov: Float64Array, n: number, order: Int32Array): Float64Array {
  if (order.length !== n) throw new RangeError(`hrpWeights: order has ${order.length} items for ${n} assets`);
  checkVariances(cov, n, "hrpWeights");
  const w = new Float64Array(n).fill(1);
  const ivp = new Float64Array(n);
  // Breadth-first over [lo, hi) ranges of `order`, as the paper's list of clusters.
  let ranges = [0, n];
  while (ranges.length > 0) {
    const next: number[] = [];
    for (let r = 0; r < ranges.length; r += 2) {
      const lo = ranges[r];
      const hi = ranges[r + 1];
      if (hi - lo < 2) continue;
      const mid = lo + ((hi - lo) >> 1);
      next.push(lo, mid, mid, hi);
      const v0 = clusterVariance(cov, n, order, lo, mid, ivp);
      const v1 = clusterVariance(cov, n, order, mid, hi, ivp);
      const alpha = 1 - v0 / (v0 + v1);
      for (let q = lo; q < mid; q++) w[order[q]] *= alpha;
      for (let q = mid; q < hi; q++) w[order[q]] *= 1 - alpha;
    }
    ranges = next;
  }
  return w;
}

/** One-way turnover ½ Σ_i |next_i − prev_i| of two weight vectors over the same assets. */
export function turnover(prev: Float64Array, next: Float64Array): number {
  if (prev.length !== next.length) throw new RangeError(`turnover: ${prev.length} vs ${next.length} weights`);
  let s = 0;
  for (let i = 0; i < prev.length; i++) s += Math.abs(next[i] - prev[i]);
  return s / 2;
}

/**
 * Turnover when the two as-ofs hold different symbols: weights keyed by symbol index (each list
 * ascending, as window members are), a symbol absent on one side weighing 0 there.
 */
export function turnoverAligned(
  prevNodes: ArrayLike<number>,
  prev: Float64Array,
  nextNodes: ArrayLike<number>,
  next: Float64Array,
): number {
  let s = 0;
  let a = 0;
  let b = 0;
  while (a < prevNodes.length || b < nextNodes.length) {
    const pa = a < prevNodes.length ? prevNodes[a] : Infinity;
    const nb = b < nextNodes.length ? nextNodes[b] : Infinity;
    if (pa === nb) s += Math.abs(next[b++] - prev[a++]);
    else if (pa < nb) s += Math.abs(prev[a++]);
    else s += Math.abs(next[b++]);
  }
  return s / 2;
}
