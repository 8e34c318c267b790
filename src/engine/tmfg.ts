/**
 * Triangulated Maximally Filtered Graph (Massara, Di Matteo, Aste 2016) on w = |ρ|: start from the
 * tetrahedron of the 4 strongest nodes, then insert each outside node into the face that gains most.
 * Each face remembers its best outside node, so an insertion re-scans only the faces it touched:
 * O(n²) in practice instead of the paper's O(n³) (test/reference/tmfg.ts). Steps and tie rules:
 * docs/engine.md § Graphs.
 */

export interface Tmfg {
  /** Edge pairs (i, j), i < j, in insertion order. */
  pairs: number[];
  /** Final triangular faces, three node indices each (for the planarity checks of the tests). */
  faces: number[];
}

export function tmfg(corr: Float64Array, n: number): Tmfg {
  const pairs: number[] = [];
  const addEdge = (i: number, j: number) => pairs.push(Math.min(i, j), Math.max(i, j));
  if (n <= 3) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) addEdge(i, j);
    return { pairs, faces: n === 3 ? [0, 1, 2] : [] };
  }
  const v = initialTetrahedron(corr, n);
  for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) addEdge(v[a], v[b]);
  // wt[a·n + x] = |ρ(x, a)|: a face's rescan reads three contiguous rows instead of three strided
  // columns through a closure (the gain sums the same three numbers in the same order).
  const wt = new Float64Array(n * n);
  for (let x = 0; x < n; x++) for (let a = 0; a < n; a++) wt[a * n + x] = Math.abs(corr[x * n + a]);
  // The nodes still outside, ascending (so the first of equal gains is the lowest index).
  const out = new Int32Array(n);
  let nOut = 0;
  for (let x = 0; x < n; x++) if (!v.includes(x)) out[nOut++] = x;
  // Faces live in flat arrays; a face removed by an insertion is marked dead.
  const maxFaces = 4 + 3 * (n - 4);
  const fa = new Int32Array(maxFaces);
  const fb = new Int32Array(maxFaces);
  const fc = new Int32Array(maxFaces);
  const alive = new Uint8Array(maxFaces);
  const bestV = new Int32Array(maxFaces).fill(-1);
  const bestGain = new Float64Array(maxFaces);
  let nFaces = 0;
  const rescan = (f: number) => {
    const ra = fa[f] * n;
    const rb = fb[f] * n;
    const rc = fc[f] * n;
    let bv = -1;
    let bg = -Infinity;
    for (let k = 0; k < nOut; k++) {
      const x = out[k];
      const gain = wt[ra + x] + wt[rb + x] + wt[rc + x];
      if (gain > bg) {
        bg = gain;
        bv = x;
      }
    }
    bestV[f] = bv;
    bestGain[f] = bg;
  };
  const addFace = (a: number, b: number, c: number) => {
    fa[nFaces] = a;
    fb[nFaces] = b;
    fc[nFaces] = c;
    alive[nFaces] = 1;
    nFaces++;
  };
  addFace(v[0], v[1], v[2]);
  addFace(v[0], v[1], v[3]);
  addFace(v[0], v[2], v[3]);
  addFace(v[1], v[2], v[3]);
  for (let f = 0; f < 4; f++) rescan(f);
  for (let left = n - 4; left > 0; left--) {
    let f = -1;
    for (let q = 0; q < nFaces; q++) {
      if (alive[q] && (f === -1 || bestGain[q] > bestGain[f])) f = q;
    }
    const x = bestV[f];
    const a = fa[f];
    const b = fb[f];
    const c = fc[f];
    let k = 0;
    while (out[k] !== x) k++;
    out.copyWithin(k, k + 1, nOut--);
    alive[f] = 0;
    addEdge(x, a);
    addEdge(x, b);
    addEdge(x, c);
    addFace(a, b, x);
    addFace(b, c, x);
    addFace(a, c, x);
    if (left === 1) break;
    for (let q = 0; q < nFaces; q++) if (alive[q] && (bestV[q] === x || q >= nFaces - 3)) rescan(q);
  }
  const faces: number[] = [];
  for (let q = 0; q < nFaces; q++) if (alive[q]) faces.push(fa[q], fb[q], fc[q]);
  return { pairs, faces };
}

/** The 4 nodes of largest strength Σ_{j≠i} w_ij (summed in index order), ties to the lower index. */
function initialTetrahedron(corr: Float64Array, n: number): number[] {
  const strength = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(corr[i * n + j]);
    strength[i] = s;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => strength[b] - strength[a] || a - b);
  return order.slice(0, 4);
}
