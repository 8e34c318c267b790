/**
 * TMFG as the paper states it, O(n³): every insertion scans every live face against every outside
 * node (as bench/networkx/tmfg_reference.py, which the golden fixtures come from). The reference
 * for src/engine/tmfg.ts, which keeps each face's best node instead.
 */
export function literalTmfg(corr: Float64Array, n: number): number[] {
  const w = (i: number, j: number) => Math.abs(corr[i * n + j]);
  const strength = Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += w(i, j);
    return s;
  });
  const v = Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => strength[b] - strength[a] || a - b)
    .slice(0, 4);
  const pairs: number[] = [];
  const add = (i: number, j: number) => pairs.push(Math.min(i, j), Math.max(i, j));
  for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) add(v[a], v[b]);
  const faces: [number, number, number][] = [
    [v[0], v[1], v[2]],
    [v[0], v[1], v[3]],
    [v[0], v[2], v[3]],
    [v[1], v[2], v[3]],
  ];
  const alive = [true, true, true, true];
  const outside = Array.from({ length: n }, (_, i) => i).filter((x) => !v.includes(x));
  while (outside.length > 0) {
    let best: [number, number, number] | null = null;
    faces.forEach(([a, b, c], f) => {
      if (!alive[f]) return;
      for (const x of outside) {
        const gain = w(x, a) + w(x, b) + w(x, c);
        if (best === null || gain > best[0]) best = [gain, f, x];
      }
    });
    const [, f, x] = best!;
    const [a, b, c] = faces[f];
    alive[f] = false;
    outside.splice(outside.indexOf(x), 1);
    add(x, a);
    add(x, b);
    add(x, c);
    faces.push([a, b, x], [b, c, x], [a, c, x]);
    alive.push(true, true, true);
  }
  return pairs;
}
