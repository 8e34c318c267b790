/**
 * correlationMatrix's OpenBLAS path (blas/openblas.ts): the Gram matrix of the centred series from
 * dsyrk, then rho = sxy / sqrt(sxx * syy) with sxx, syy from the same matrix's diagonal.
 */
import type { OpenBlas } from "./blas/openblas.ts";

/** Side of the square blocks normalised and mirrored together: a block and its mirror stay in the L1 cache. */
const BLOCK = 32;

/**
 * packed: the n centred series of L values, row after row; ss: their sums of squares, each summed
 * in k order. Returns the n*n row-major matrix, diagonal 1, clipped to [-1, 1].
 */
export function blasCorrelation(blas: OpenBlas, packed: Float64Array, ss: Float64Array, n: number, L: number): Float64Array {
  const out = new Float64Array(n * n);
  blas.gramUpper(packed, n, L, out);
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = out[i * n + i];
  // One pass over the upper triangle, block by block, writing each block's mirror while it is in
  // the cache: a row-by-row pass and then a transpose would read the whole matrix twice.
  for (let ib = 0; ib < n; ib += BLOCK) {
    const ie = Math.min(n, ib + BLOCK);
    for (let jb = ib; jb < n; jb += BLOCK) {
      const je = Math.min(n, jb + BLOCK);
      for (let i = ib; i < ie; i++) {
        const row = i * n;
        const di = d[i];
        for (let j = Math.max(jb, i + 1); j < je; j++) {
          const r = out[row + j] / Math.sqrt(di * d[j]);
          const c = r > 1 ? 1 : Math.max(r, -1);
          out[row + j] = c;
          out[j * n + i] = c;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) out[i * n + i] = 1;
  exactTies(packed, ss, n, L, out);
  return out;
}

/**
 * BLAS sums a dot product in an order of its own (blocked, with FMA), so sxy of two identical
 * series need not equal their sxx bit for bit. Identical centred series, and negated ones, are
 * set to exactly 1 and -1 here, as the scalar loops give them: such rows have bitwise-equal sums of
 * squares (summed in the same order), so only rows sharing one are compared.
 */
function exactTies(packed: Float64Array, ss: Float64Array, n: number, L: number, out: Float64Array): void {
  const first = new Map<number, number>();
  let groups: Map<number, number[]> | null = null;
  for (let i = 0; i < n; i++) {
    const f = first.get(ss[i]);
    if (f === undefined) {
      first.set(ss[i], i);
      continue;
    }
    groups ??= new Map();
    const g = groups.get(f);
    if (g) g.push(i);
    else groups.set(f, [f, i]);
  }
  if (groups === null) return;
  for (const rows of groups.values()) {
    for (let p = 0; p < rows.length; p++) {
      for (let q = p + 1; q < rows.length; q++) {
        const a = rows[p] * L;
        const b = rows[q] * L;
        let same = true;
        let negated = true;
        for (let k = 0; k < L && (same || negated); k++) {
          same &&= packed[a + k] === packed[b + k];
          negated &&= packed[a + k] === -packed[b + k];
        }
        if (!same && !negated) continue;
        const r = same ? 1 : -1;
        out[rows[p] * n + rows[q]] = r;
        out[rows[q] * n + rows[p]] = r;
      }
    }
  }
}
