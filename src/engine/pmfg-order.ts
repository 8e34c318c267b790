/**
 * The PMFG's candidate order (pmfg.ts): every pair i < j of an n×n correlation matrix by
 * increasing d = √(2(1 − |ρ|)), ties by (i, j), in O(n²) with a radix sort.
 */

/** Scratch of n(n−1)/2 entries each, kept by the caller between calls of one n. */
export interface OrderScratch {
  code: Int32Array;
  key: Float64Array;
  idx: Int32Array;
  tmp: Int32Array;
}

/** Index (0 or 1) of the high 32 bits of a float64 in a Uint32Array view (the platform's byte order). */
const HIGH_WORD = new Uint32Array(new Float64Array([1]).buffer)[1] !== 0 ? 1 : 0;

/**
 * Pair codes i·n + j (i < j) sorted by (d, code); code order is (i, j) order. d ≥ 0, so its IEEE
 * bits order as unsigned integers as the values do: a stable LSD radix sort of the high 32 bits
 * (11 bits a pass, codes entered in code order), then an insertion pass over the full d within
 * runs of equal high words, gives the comparison sort's order in O(n²). A NaN d (no real
 * correlation gives one) falls back to that sort.
 */
export function candidateOrder(corr: Float64Array, n: number, ws: OrderScratch): Int32Array {
  const count = (n * (n - 1)) / 2;
  const { code, key } = ws;
  let q = 0;
  let nan = false;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      code[q] = i * n + j;
      // The expression of graph.ts's edgeLength, so ties in d are the mst's ties.
      key[q] = Math.sqrt(2 * (1 - Math.abs(corr[i * n + j])));
      if (Number.isNaN(key[q])) nan = true;
      q++;
    }
  }
  if (nan) {
    const d = new Float64Array(n * n);
    for (let k = 0; k < count; k++) d[code[k]] = key[k];
    return code.slice().sort((a, b) => d[a] - d[b] || a - b);
  }
  const bits = new Uint32Array(key.buffer, key.byteOffset, 2 * count);
  let idx = ws.idx;
  let tmp = ws.tmp;
  for (let k = 0; k < count; k++) idx[k] = k;
  const bucket = new Int32Array(2048);
  for (let shift = 0; shift < 32; shift += 11) {
    bucket.fill(0);
    for (let k = 0; k < count; k++) bucket[(bits[2 * idx[k] + HIGH_WORD] >>> shift) & 2047]++;
    if (bucket.includes(count)) continue; // one digit for all: the pass keeps the order
    let sum = 0;
    for (let b = 0; b < 2048; b++) {
      const c = bucket[b];
      bucket[b] = sum;
      sum += c;
    }
    for (let k = 0; k < count; k++) tmp[bucket[(bits[2 * idx[k] + HIGH_WORD] >>> shift) & 2047]++] = idx[k];
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  // Equal high words leave their run in index (code) order; order each run by the full d, stably.
  for (let k = 1; k < count; k++) {
    const x = idx[k];
    const kx = key[x];
    let p = k - 1;
    if (key[idx[p]] <= kx) continue;
    while (p >= 0 && key[idx[p]] > kx) {
      idx[p + 1] = idx[p];
      p--;
    }
    idx[p + 1] = x;
  }
  const out = new Int32Array(count);
  for (let k = 0; k < count; k++) out[k] = code[idx[k]];
  return out;
}
