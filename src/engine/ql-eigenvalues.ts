/**
 * The QL algorithm on a symmetric tridiagonal: the engine's eigenvalues come from its rational,
 * square-root-free form (EISPACK's tqlrat), which runs on the squared subdiagonal and takes about
 * half the time of the rotations of tql2 (EISPACK's, as transcribed in JAMA). tql2 stays for the
 * tests' full decomposition (test/support/engine/symmetric-eigen.ts), which needs the rotations for
 * the vectors. Both are backward stable: each eigenvalue is within a few n·ε·‖A‖ of LAPACK's
 * (numpy.linalg.eigh).
 */

/**
 * Eigenvalues, descending, of the symmetric tridiagonal with diagonal d (n) and subdiagonal e
 * (e[i] couples i and i + 1); d and e are not changed.
 */
export function qlEigenvalues(d: Float64Array, e: Float64Array, n: number): Float64Array {
  // QL deflates from the top; like LAPACK's dsterf, run it on the reversed matrix (QR) when the
  // bottom end is the smaller, where a Householder-reduced correlation matrix is already nearly
  // split: about 10% fewer inner steps at n = 50.
  const reverse = n > 1 && Math.abs(d[n - 1]) < Math.abs(d[0]);
  const dd = new Float64Array(n);
  const e2 = new Float64Array(n);
  for (let i = 0; i < n; i++) dd[i] = reverse ? d[n - 1 - i] : d[i];
  for (let i = 0; i + 1 < n; i++) {
    const x = reverse ? e[n - 2 - i] : e[i];
    e2[i] = x * x;
  }
  if (n > 0) tqlrat(dd, e2, n);
  return dd.sort().reverse();
}

/**
 * Rational QL (EISPACK tqlrat, 0-based): d the diagonal, e2[i] the squared coupling of i and
 * i + 1 (e2[n − 1] = 0), both overwritten; d ends as the eigenvalues, unordered.
 */
function tqlrat(d: Float64Array, e2: Float64Array, n: number): void {
  const eps = 2 ** -52;
  let f = 0;
  let t = 0;
  // b: the smallest value a pivot g is let become (ε·‖T‖, not 0); c = b²: the deflation bound on e2.
  let b = 0;
  let c = 0;
  for (let l = 0; l < n; l++) {
    const norm = Math.abs(d[l]) + Math.sqrt(e2[l]);
    if (t < norm) {
      t = norm;
      b = eps * t;
      c = b * b;
    }
    let m = l;
    while (e2[m] > c) m++;
    let iter = 0;
    while (m > l) {
      if (++iter > 100) throw new Error("qlEigenvalues: QL did not converge");
      // The shift: the eigenvalue of the leading 2×2 nearer d[l].
      let s = Math.sqrt(e2[l]);
      let g = d[l];
      let p = (d[l + 1] - g) / (2 * s);
      let r = Math.sqrt(p * p + 1);
      d[l] = s / (p + (p >= 0 ? r : -r));
      let h = g - d[l];
      for (let i = l + 1; i < n; i++) d[i] -= h;
      f += h;
      g = d[m];
      if (g === 0) g = b;
      h = g;
      s = 0;
      for (let i = m - 1; i >= l; i--) {
        p = g * h;
        r = p + e2[i];
        e2[i + 1] = s * r;
        s = e2[i] / r;
        d[i + 1] = h + s * (h + d[i]);
        g = d[i] - e2[i] / g;
        if (g === 0) g = b;
        h = (g * p) / r;
      }
      e2[l] = s * g;
      d[l] = h;
      // Converged when the new coupling is negligible (guarded against underflow as tqlrat does).
      if (h === 0 || Math.abs(e2[l]) <= Math.abs(c / h)) break;
      e2[l] *= h;
      if (e2[l] === 0) break;
    }
    d[l] += f;
  }
}

/** Implicit QL on the tridiagonal (d, e), rotating the rows of W (the transposed eigenvectors) when given. */
export function tql2(W: Float64Array | null, d: Float64Array, e: Float64Array, n: number): void {
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
