/**
 * Triangulated Maximally Filtered Graph (Massara, Di Matteo, Aste 2016, "Network filtering for big
 * data: TMFG"), on the similarity w = |ρ| the other graphs use:
 * 1. start from the tetrahedron of the 4 nodes with the largest strength Σ_j w_ij (ties: lower
 *    index), taken in that order as v1..v4; its faces are (v1,v2,v3), (v1,v2,v4), (v1,v3,v4),
 *    (v2,v3,v4);
 * 2. repeatedly insert the outside node v into the face (a,b,c) that maximises the gain
 *    w_va + w_vb + w_vc (ties: the older face, then the lower node), adding edges v-a, v-b, v-c;
 *    the face is replaced by (a,b,v), (b,c,v), (a,c,v), appended in that order.
 * The result is a maximal planar graph: 3(n−2) edges, every face a triangle. n ≤ 3 gives the
 * complete graph. Each face keeps its best outside node, so an insertion re-scans only the three
 * new faces and those whose best node was just taken: O(n²) in practice (the paper's bound).
 * bench/networkx/tmfg_reference.py is the literal O(n³) version the golden fixtures come from.
 */

export interface Tmfg {
  /** Edge pairs (i, j), i < j, in insertion order. */
  pairs: number[];
  /** Final triangular faces, three node indices each (for the planarity checks of the tests). */
  faces: number[];
}

export function tmfg(corr: Float64Array, n: number): Tmfg {
  const w = (i: number, j: number) => Math.abs(corr[i * n + j]);
  const pairs: number[] = [];
  const addEdge = (i: number, j: number) => pairs.push(i < j ? i : j, i < j ? j : i);
  if (n <= 3) {
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) addEdge(i, j);
    return { pairs, faces: n === 3 ? [0, 1, 2] : [] };
  }
  const v = initialTetrahedron(corr, n);
  for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) addEdge(v[a], v[b]);
  const outside = new Uint8Array(n).fill(1);
  for (const x of v) outside[x] = 0;
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
    let bv = -1;
    let bg = -Infinity;
    for (let x = 0; x < n; x++) {
      if (!outside[x]) continue;
      const gain = w(x, fa[f]) + w(x, fb[f]) + w(x, fc[f]);
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
    const [a, b, c] = [fa[f], fb[f], fc[f]];
    outside[x] = 0;
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
