/** Reference knn: full stable sort of each row by |rho| descending, ties by lower index. */
export function knnReference(corr: Float64Array, n: number, k: number): string[] {
  const keep = new Set<string>();
  for (let i = 0; i < n; i++) {
    const others = Array.from({ length: n }, (_, j) => j).filter((j) => j !== i);
    others.sort((a, b) => Math.abs(corr[i * n + b]) - Math.abs(corr[i * n + a]) || a - b);
    for (const j of others.slice(0, Math.min(k, n - 1))) keep.add(`${Math.min(i, j)}-${Math.max(i, j)}`);
  }
  return [...keep].sort((a, b) => {
    const [ai, aj] = a.split("-").map(Number);
    const [bi, bj] = b.split("-").map(Number);
    return ai - bi || aj - bj;
  });
}
