/**
 * Exact planarity test: the left-right planarity test of de Fraysseix and Rosenstiehl in Brandes'
 * formulation ("The Left-Right Planarity Test", 2009), transcribed from networkx's
 * `check_planarity` (networkx/algorithms/planarity.py, LRPlanarity), embedding phase included.
 * Its three phases are lr-orientation.ts, lr-constraints.ts and lr-embedding.ts; this is the
 * tester that runs them, on a whole graph or on the kept graph plus one candidate edge.
 * Linear time apart from the nesting-depth sort (a counting sort here). Typed arrays sized once
 * per tester, so the PMFG's thousand tests per graph allocate nothing. docs/engine.md § PMFG.
 */
import { LrConstraints } from "./lr-constraints.ts";
import { LrEmbedding } from "./lr-embedding.ts";
import { LrOrientation } from "./lr-orientation.ts";

/** Reusable workspace for graphs of at most maxNodes nodes and maxEdges edges. */
export class PlanarityTester {
  private readonly orientation: LrOrientation;
  private readonly constraints: LrConstraints;
  private readonly embedding: LrEmbedding;
  private nRoots = 0;
  private embeddable = false;
  /** The orientation is the kept graph's (edges 0 … baseM − 1 of isPlanarWith's caller), −1: none. */
  private baseM = -1;

  constructor(
    readonly maxNodes: number,
    readonly maxEdges: number,
  ) {
    this.orientation = new LrOrientation(maxNodes, maxEdges);
    this.constraints = new LrConstraints(this.orientation);
    this.embedding = new LrEmbedding(this.orientation, this.constraints);
  }

  /**
   * Is the simple graph on nodes 0..n-1 with edges (eu[e], ev[e]), e < m, planar? With `root` ≥ 0
   * only root's connected component is tested (the other components must be known planar).
   */
  isPlanar(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root = -1): boolean {
    if (n > this.maxNodes || m > this.maxEdges)
      throw new RangeError(`planarity workspace holds ${this.maxNodes} nodes, ${this.maxEdges} edges`);
    this.embeddable = false;
    this.baseM = -1;
    if (root < 0 && n > 2 && m > 3 * n - 6) return false;
    const nRoots = this.orientation.orientAll(n, m, eu, ev, root);
    const planar = this.testOriented(n, m, nRoots, root >= 0);
    // A planar graph's orientation is the kept graph's once the caller keeps the edge (isPlanarWith).
    if (planar && root >= 0) this.baseM = m;
    return planar;
  }

  /**
   * isPlanar(n, m, eu, ev, root) for a graph that is the kept graph of the previous calls (edges
   * 0 … m − 2, reported through isPlanarWith and kept()) plus the candidate edge m − 1. When the
   * candidate joins a node to its ancestor in the kept graph's DFS tree, that orientation is reused:
   * the candidate becomes a back edge and only the lowpoints along the tree path change (LR
   * planarity holds for any DFS tree); else the whole test. Same answer either way.
   */
  isPlanarWith(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root: number): boolean {
    const u = eu[m - 1];
    const v = ev[m - 1];
    const o = this.orientation;
    const { height } = o;
    if (this.baseM !== m - 1 || height[u] < 0 || height[v] < 0) {
      if (n > this.maxNodes || m > this.maxEdges)
        throw new RangeError(`planarity workspace holds ${this.maxNodes} nodes, ${this.maxEdges} edges`);
      o.orientAll(n, m - 1, eu, ev, root);
      this.baseM = m - 1;
    }
    this.embeddable = false;
    let a: number;
    let d: number;
    // (u and v in two components of the kept graph: the whole test.)
    if (height[u] < 0 || height[v] < 0) return this.isPlanar(n, m, eu, ev, root);
    if (o.isAncestor(u, v)) {
      a = u;
      d = v;
    } else if (o.isAncestor(v, u)) {
      a = v;
      d = u;
    } else return this.isPlanar(n, m, eu, ev, root);
    o.addBackEdge(m - 1, d, a, true);
    if (this.testOriented(n, m, 1, true)) {
      this.baseM = m;
      return true;
    }
    // Put the kept graph's orientation back.
    o.dropBackEdge();
    return false;
  }

  /**
   * The caller kept edge e = (u, v) without a test: the orientation follows when e is a back edge
   * of its DFS tree or lies outside the oriented component, else it is dropped.
   */
  kept(e: number, u: number, v: number): void {
    if (this.baseM !== e) {
      this.baseM = -1;
      return;
    }
    const o = this.orientation;
    const { height } = o;
    if (height[u] < 0 && height[v] < 0) this.baseM = e + 1;
    else if (height[u] < 0 || height[v] < 0) this.baseM = -1;
    else if (o.isAncestor(u, v)) {
      o.addBackEdge(e, v, u, false);
      this.baseM = e + 1;
    } else if (o.isAncestor(v, u)) {
      o.addBackEdge(e, u, v, false);
      this.baseM = e + 1;
    } else this.baseM = -1;
  }

  /** No kept graph yet (a new graph starts). */
  forget(): void {
    this.baseM = -1;
  }

  /** The left-right test on the oriented edges (one root's component when `one`); m bounds the edge ids. */
  private testOriented(n: number, m: number, nRoots: number, one: boolean): boolean {
    const o = this.orientation;
    const nVisited = o.nVisited;
    const nOriented = o.nOriented;
    // Euler's bound on what was oriented (networkx applies it to the whole graph first).
    if (one && nVisited > 2 && nOriented > 3 * nVisited - 6) return false;
    o.sortByNesting(nVisited, nOriented);
    if (!this.constraints.hold(n, m, nRoots)) return false;
    this.nRoots = nRoots;
    this.embeddable = true;
    return true;
  }

  /**
   * networkx's embedding phase, after isPlanar returned true (and before the next test): the
   * tested nodes' rotation system into `cw`, `ccw` and `first` (lr-embedding.ts).
   */
  embed(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number): void {
    if (!this.embeddable) throw new Error("embed() needs isPlanar() to have just returned true");
    this.embeddable = false;
    this.embedding.embed(this.nRoots, cw, ccw, first, stride);
  }
}

/** Convenience: is the graph with edge pairs (i, j) flattened in `pairs` planar? */
export function isPlanar(n: number, pairs: ArrayLike<number>): boolean {
  const m = pairs.length / 2;
  const eu = new Int32Array(m);
  const ev = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    eu[e] = pairs[2 * e];
    ev[e] = pairs[2 * e + 1];
  }
  return new PlanarityTester(n, m).isPlanar(n, m, eu, ev);
}
