/**
 * A plane embedding as a rotation system, in arrays (networkx's PlanarEmbedding): for node v and
 * neighbour w at v·stride + w, `cw` the next neighbour clockwise and `ccw` counter-clockwise;
 * `first[v]` one neighbour (−1: none). The left-right test writes one (PlanarityTester.embed), the
 * PMFG keeps one growing (plane-embedding.ts) and reads 3-connected sets' faces off it (rigid-sets.ts).
 */

/** networkx's PlanarEmbedding.add_half_edge_cw: w after (clockwise of) `ref` around v; ref −1 = v's first neighbour. */
export function addCw(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number, v: number, w: number, ref: number): void {
  const o = v * stride;
  if (ref === -1) {
    cw[o + w] = w;
    ccw[o + w] = w;
    first[v] = w;
    return;
  }
  const next = cw[o + ref];
  cw[o + ref] = w;
  cw[o + w] = next;
  ccw[o + next] = w;
  ccw[o + w] = ref;
}

/** networkx's add_half_edge_ccw: w before (counter-clockwise of) `ref` around v, and first if ref was. */
export function addCcw(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number, v: number, w: number, ref: number): void {
  if (ref === -1) {
    addCw(cw, ccw, first, stride, v, w, -1);
    return;
  }
  addCw(cw, ccw, first, stride, v, w, ccw[v * stride + ref]);
  if (first[v] === ref) first[v] = w;
}

/**
 * Walks the face to the left of half-edge (a, b): (a, b) -> (b, before[b·n + a]) until (a, b)
 * again, `before` being ccw (or a rotation restricted to some nodes, in the same layout). Marks
 * each half-edge (x, y) walked with `mark` at seen[x·n + y] and, with `nodes`, writes the face's
 * nodes in order (nodes[0] = a, nodes[1] = b, …). Returns the face's length, or −1 when it has not
 * closed after `limit` half-edges: in a rotation system that is not one the walk need not return,
 * and with `nodes` that bounds what is written.
 */
export function traceFace(
  before: Int32Array,
  n: number,
  a: number,
  b: number,
  seen: Int32Array,
  mark: number,
  limit: number,
  nodes: Int32Array | null,
): number {
  const a0 = a;
  const b0 = b;
  let len = 0;
  do {
    seen[a * n + b] = mark;
    if (len === limit) return -1;
    if (nodes !== null) nodes[len] = a;
    len++;
    const c = before[b * n + a];
    a = b;
    b = c;
  } while (a !== a0 || b !== b0);
  return len;
}
