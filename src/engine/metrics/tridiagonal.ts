/**
 * Small symmetric tridiagonal eigenproblems for the Lanczos eigenvector solver: eigenvalues by
 * Sturm-sequence bisection, the eigenvector by inverse iteration with a pivoted tridiagonal
 * solve. Each is O(m) per step, so the Lanczos loop can check convergence after every step.
 * Hand-written because no installed dependency offers it; m stays <= a component's size (<= 500).
 * T has diag[0..m-1] on the diagonal and off[0..m-2] coupling j and j+1.
 */

/** Number of eigenvalues of T strictly below x. */
function countBelow(diag: ArrayLike<number>, off: ArrayLike<number>, m: number, x: number): number {
  let count = 0;
  let q = diag[0] - x;
  if (q < 0) count++;
  for (let i = 1; i < m; i++) {
    if (q === 0) q = Number.MIN_VALUE;
    q = diag[i] - x - (off[i - 1] * off[i - 1]) / q;
    if (q < 0) count++;
  }
  return count;
}

/** Gershgorin interval holding every eigenvalue of T. */
export function gershgorin(diag: ArrayLike<number>, off: ArrayLike<number>, m: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < m; i++) {
    const r = (i > 0 ? Math.abs(off[i - 1]) : 0) + (i < m - 1 ? Math.abs(off[i]) : 0);
    lo = Math.min(lo, diag[i] - r);
    hi = Math.max(hi, diag[i] + r);
  }
  return [lo, hi];
}

/** The eigenvalue with exactly `below` eigenvalues under it (0 = smallest, m-1 = largest), to rounding. */
export function tridiagonalEigenvalue(
  diag: ArrayLike<number>,
  off: ArrayLike<number>,
  m: number,
  below: number,
  bounds = gershgorin(diag, off, m),
  relTol = 0,
): number {
  let [lo, hi] = bounds;
  lo -= 1e-12 * (Math.abs(lo) + 1);
  hi += 1e-12 * (Math.abs(hi) + 1);
  for (let it = 0; it < 200; it++) {
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi || hi - lo <= relTol * (Math.abs(lo) + Math.abs(hi))) break;
    if (countBelow(diag, off, m, mid) > below) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

/** Inverse iteration's workspace, kept between calls (it runs once per vector of every as-of). */
let work = {
  m: 0,
  d: new Float64Array(0),
  du: new Float64Array(0),
  dl: new Float64Array(0),
  fact: new Float64Array(0),
  swapped: new Uint8Array(0),
};

function workspace(m: number) {
  if (work.m < m) {
    const c = Math.max(m, 2 * work.m);
    work = {
      m: c,
      d: new Float64Array(c),
      du: new Float64Array(c),
      dl: new Float64Array(c),
      fact: new Float64Array(c),
      swapped: new Uint8Array(c),
    };
  }
  return work;
}

/**
 * Unit eigenvector of T for the (accurate) eigenvalue theta: inverse iteration, three solves of
 * (T - theta I) y = previous y with T - theta I factored once with partial pivoting (LAPACK
 * dgttrf's elimination, dgttrs's solve). Written to y[o … o + m) (a fresh array by default). The
 * back substitution multiplies by the pivots' reciprocals, taken once: a division in that loop
 * lies on its chain of dependent steps, three times per vector.
 */
export function tridiagonalEigenvector(
  diag: ArrayLike<number>,
  off: ArrayLike<number>,
  m: number,
  theta: number,
  y: Float64Array = new Float64Array(m),
  o = 0,
): Float64Array {
  if (m === 1) {
    y[o] = 1;
    return y;
  }
  const { d, du, dl, fact, swapped } = workspace(m);
  y.fill(1 / Math.sqrt(m), o, o + m);
  let scale = 0;
  for (let i = 0; i < m; i++) scale = Math.max(scale, Math.abs(diag[i] - theta) + (i < m - 1 ? Math.abs(off[i]) : 0));
  const tiny = Number.EPSILON * Math.max(scale, Number.MIN_VALUE);
  for (let i = 0; i < m; i++) d[i] = diag[i] - theta;
  for (let i = 0; i < m - 1; i++) {
    du[i] = off[i];
    dl[i] = off[i];
  }
  du[m - 1] = 0;
  // After the elimination dl holds the second superdiagonal the row swaps create.
  for (let i = 0; i < m - 1; i++) {
    if (Math.abs(d[i]) >= Math.abs(dl[i])) {
      if (d[i] === 0) d[i] = tiny;
      const f = dl[i] / d[i];
      fact[i] = f;
      swapped[i] = 0;
      d[i + 1] -= f * du[i];
      dl[i] = 0;
    } else {
      const f = d[i] / dl[i];
      fact[i] = f;
      swapped[i] = 1;
      d[i] = dl[i];
      const temp = d[i + 1];
      d[i + 1] = du[i] - f * temp;
      if (i < m - 2) {
        dl[i] = du[i + 1];
        du[i + 1] = -f * dl[i];
      } else dl[i] = 0;
      du[i] = temp;
    }
  }
  if (d[m - 1] === 0) d[m - 1] = tiny;
  // d now holds the pivots' reciprocals.
  for (let i = 0; i < m; i++) d[i] = 1 / d[i];
  // Each solve carries the entries it chains on in locals rather than reading back what it just
  // stored; the back substitution sums the squares for the normalisation as it goes.
  for (let pass = 0; pass < 3; pass++) {
    let cur = y[o];
    for (let i = 0; i < m - 1; i++) {
      const next = y[o + i + 1];
      if (swapped[i] === 1) {
        y[o + i] = next;
        cur = cur - fact[i] * next;
      } else {
        y[o + i] = cur;
        cur = next - fact[i] * cur;
      }
    }
    let y2 = cur * d[m - 1];
    let y1 = (y[o + m - 2] - du[m - 2] * y2) * d[m - 2];
    y[o + m - 1] = y2;
    y[o + m - 2] = y1;
    let sq = y2 * y2 + y1 * y1;
    for (let i = m - 3; i >= 0; i--) {
      const yi = (y[o + i] - du[i] * y1 - dl[i] * y2) * d[i];
      y[o + i] = yi;
      sq += yi * yi;
      y2 = y1;
      y1 = yi;
    }
    const inv = 1 / Math.sqrt(sq);
    for (let i = 0; i < m; i++) y[o + i] *= inv;
  }
  return y;
}
