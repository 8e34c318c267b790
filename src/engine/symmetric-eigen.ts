/**
 * The eigen-decomposition of a dense symmetric matrix: Householder reduction to tridiagonal form,
 * then the implicit QL algorithm (EISPACK's tred2 and tql2, as transcribed in JAMA). No dense
 * symmetric solver existed here (eigenvector centrality needs only the Perron pair of a sparse
 * graph, `metrics/lanczos.ts`), and the random-matrix filters need every eigenvalue: backward
 * stable, so each eigenvalue is within a few n·ε·‖A‖ of LAPACK's (numpy.linalg.eigh).
 */

export interface SymmetricEigen {
  /** Eigenvalues, descending. */
  values: Float64Array;
  /** With vectors: row k (vectors[k·n … k·n + n − 1]) is the unit eigenvector of values[k]. */
  vectors: Float64Array | null;
}

/**
 * Eigenvalues (descending) and, when `vectors`, eigenvectors of the symmetric n×n row-major `a`
 * (only its lower triangle is read; `a` is not changed). Without vectors the accumulation of
 * the Householder reflections and the QL rotations are skipped: about a third of the work.
 */
export function symmetricEigen(a: Float64Array, n: number, vectors = true): SymmetricEigen {
  const values = new Float64Array(n);
  if (n === 0) return { values, vectors: vectors ? new Float64Array(0) : null };
  const V = Float64Array.from(a);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  tred2(V, d, e, n, vectors);
  // tql2 rotates columns of V; on its transpose those are rows, read contiguously.
  const W = vectors ? transpose(V, n) : null;
  tql2(W, d, e, n);
  const order = Array.from({ length: n }, (_, k) => k).sort((x, y) => d[y] - d[x] || x - y);
  for (let k = 0; k < n; k++) values[k] = d[order[k]];
  if (!W) return { values, vectors: null };
  const out = new Float64Array(n * n);
  for (let k = 0; k < n; k++) out.set(W.subarray(order[k] * n, order[k] * n + n), k * n);
  return { values, vectors: out };
}

/**
 * Eigenvalues, descending, of the symmetric tridiagonal with diagonal d (n) and subdiagonal e
 * (e[i] couples i and i + 1); d and e are not changed.
 */
export function qlEigenvalues(d: Float64Array, e: Float64Array, n: number): Float64Array {
  const dd = Float64Array.from(d);
  const ee = new Float64Array(n);
  for (let i = 0; i + 1 < n; i++) ee[i + 1] = e[i];
  if (n > 0) tql2(null, dd, ee, n);
  return dd.sort().reverse();
}

function transpose(m: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) t[j * n + i] = m[i * n + j];
  return t;
}

/** Householder tridiagonalisation in place: d the diagonal, e[1..n−1] the subdiagonal; V the accumulated reflections when `accumulate`. */
function tred2(V: Float64Array, d: Float64Array, e: Float64Array, n: number, accumulate: boolean): void {
  for (let j = 0; j < n; j++) d[j] = V[(n - 1) * n + j];
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]);
    if (scale === 0) {
      e[i] = d[i - 1];
      for (let j = 0; j < i; j++) {
        d[j] = V[(i - 1) * n + j];
        V[i * n + j] = 0;
        V[j * n + i] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      let f = d[i - 1];
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j];
        V[j * n + i] = f;
        g = e[j] + V[j * n + j] * f;
        for (let k = j + 1; k <= i - 1; k++) {
          const vkj = V[k * n + j];
          g += vkj * d[k];
          e[k] += vkj * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j];
      for (let j = 0; j < i; j++) {
        f = d[j];
        g = e[j];
        for (let k = j; k <= i - 1; k++) V[k * n + j] -= f * e[k] + g * d[k];
        d[j] = V[(i - 1) * n + j];
        V[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  if (accumulate) {
    for (let i = 0; i < n - 1; i++) {
      V[(n - 1) * n + i] = V[i * n + i];
      V[i * n + i] = 1;
      const h = d[i + 1];
      if (h !== 0) {
        for (let k = 0; k <= i; k++) d[k] = V[k * n + i + 1] / h;
        for (let j = 0; j <= i; j++) {
          let g = 0;
          for (let k = 0; k <= i; k++) g += V[k * n + i + 1] * V[k * n + j];
          for (let k = 0; k <= i; k++) V[k * n + j] -= g * d[k];
        }
      }
      for (let k = 0; k <= i; k++) V[k * n + i + 1] = 0;
    }
    for (let j = 0; j < n; j++) {
      d[j] = V[(n - 1) * n + j];
      V[(n - 1) * n + j] = 0;
    }
    V[(n - 1) * n + (n - 1)] = 1;
  } else {
    // The diagonal as the accumulation would leave it: tred2 stores it in V's last row and diagonal.
    for (let i = 0; i < n - 1; i++) V[(n - 1) * n + i] = V[i * n + i];
    for (let j = 0; j < n; j++) d[j] = V[(n - 1) * n + j];
  }
  e[0] = 0;
}

/** Implicit QL on the tridiagonal (d, e), rotating the rows of W (the transposed eigenvectors) when given. */
function tql2(W: Float64Array | null, d: Float64Array, e: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i];
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m]) <= eps * tst1) break;
      m++;
    }
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > 100) throw new Error("symmetricEigen: QL did not converge");
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = Math.sqrt(p * p + 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = Math.sqrt(p * p + e[i] * e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          if (W) {
            const oi = i * n;
            const oj = oi + n;
            for (let k = 0; k < n; k++) {
              const wk = W[oj + k];
              W[oj + k] = s * W[oi + k] + c * wk;
              W[oi + k] = c * W[oi + k] - s * wk;
            }
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > eps * tst1);
    }
    d[l] += f;
    e[l] = 0;
  }
}
