/**
 * The left-right test's embedding phase (networkx's check_planarity after a planar answer):
 * from the orientation (lr-orientation.ts) and the sides the constraint phase left
 * (lr-constraints.ts), the rotation system of the tested component (rotation-system.ts).
 */
import type { LrConstraints } from "./lr-constraints.ts";
import type { LrOrientation } from "./lr-orientation.ts";
import { addCcw, addCw } from "./rotation-system.ts";

export class LrEmbedding {
  private readonly leftRef: Int32Array;
  private readonly rightRef: Int32Array;
  private readonly nestingCopy: Int32Array;

  constructor(
    private readonly o: LrOrientation,
    private readonly c: LrConstraints,
  ) {
    const n = Math.max(1, o.maxNodes);
    this.leftRef = new Int32Array(n);
    this.rightRef = new Int32Array(n);
    this.nestingCopy = new Int32Array(Math.max(1, o.maxEdges));
  }

  /**
   * The tested nodes' rotation system, for each such node v and neighbour w at v·stride + w: `cw`
   * the next neighbour clockwise, `ccw` counter-clockwise; `first[v]` one neighbour (−1: none).
   * Other nodes' entries are left as they are. Nesting depths get the sides' signs (sign()
   * resolves the ref chains), out-edges are reordered by them, and a DFS from each of the first
   * nRoots roots adds each back edge beside its ref.
   */
  embed(nRoots: number, cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number): void {
    const { o } = this;
    const { orientedList, nesting, dst, visited, outStart, outEnd, outE, parentEdge, ind, dfs } = o;
    const { ref, side } = this.c;
    const nOriented = o.nOriented;
    const nVisited = o.nVisited;
    const chain = o.sorted;
    // The nesting depths get signs below; the kept graph's orientation needs them back (isPlanarWith).
    const copy = this.nestingCopy;
    for (let q = 0; q < nOriented; q++) copy[q] = nesting[orientedList[q]];
    for (let q = 0; q < nOriented; q++) {
      // sign(e): side[e] *= sign(ref[e]) along the chain of refs, deepest first.
      let len = 0;
      for (let e = orientedList[q]; ref[e] !== -1; e = ref[e]) {
        if (len === nOriented) throw new Error("planarity: cyclic ref chain");
        chain[len++] = e;
      }
      for (let k = len - 1; k >= 0; k--) {
        const e = chain[k];
        side[e] *= side[ref[e]];
        ref[e] = -1;
      }
    }
    // Out-edges by signed nesting depth (counting sort, stable in orientation order as networkx's sorted()).
    const shift = this.maxNesting(nOriented);
    for (let q = 0; q < nOriented; q++) nesting[orientedList[q]] = side[orientedList[q]] * nesting[orientedList[q]] + shift;
    o.sortByNesting(nVisited, nOriented);
    for (let q = 0; q < nVisited; q++) first[visited[q]] = -1;
    const { leftRef, rightRef } = this;
    for (let q = 0; q < nVisited; q++) {
      const v = visited[q];
      let prev = -1;
      for (let k = outStart[v]; k < outEnd[v]; k++) {
        const w = dst[outE[k]];
        addCw(cw, ccw, first, stride, v, w, prev);
        prev = w;
      }
    }
    ind.fill(0, 0, o.maxNodes);
    for (let r = 0; r < nRoots; r++) {
      let top = 0;
      dfs[top++] = o.roots[r];
      while (top > 0) {
        const v = dfs[--top];
        while (outStart[v] + ind[v] < outEnd[v]) {
          const ei = outE[outStart[v] + ind[v]];
          ind[v]++;
          const w = dst[ei];
          if (ei === parentEdge[w]) {
            // Tree edge: v first in w's list, then w's subtree.
            addCcw(cw, ccw, first, stride, w, v, first[w]);
            leftRef[v] = w;
            rightRef[v] = w;
            dfs[top++] = v;
            dfs[top++] = w;
            break;
          }
          // Back edge v -> w: placed at w beside w's right or left reference.
          if (side[ei] === 1) addCw(cw, ccw, first, stride, w, v, rightRef[w]);
          else {
            addCcw(cw, ccw, first, stride, w, v, leftRef[w]);
            leftRef[w] = v;
          }
        }
      }
    }
    for (let q = 0; q < nOriented; q++) nesting[orientedList[q]] = copy[q];
  }

  private maxNesting(nOriented: number): number {
    const { nesting, orientedList } = this.o;
    let max = 0;
    for (let q = 0; q < nOriented; q++) max = Math.max(max, Math.abs(nesting[orientedList[q]]));
    return max;
  }
}
