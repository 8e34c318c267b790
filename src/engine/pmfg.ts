/**
 * Planar Maximally Filtered Graph (Tumminello, Aste, Di Matteo, Mantegna 2005): candidate edges
 * by decreasing |ρ|, each kept if the graph stays planar, until 3(n−2) edges. The order, its
 * tie-break and the n < 5 cases: docs/engine.md § PMFG.
 */
import { PlaneEmbedding } from "./plane-embedding.ts";
import { PlanarityTester } from "./planarity.ts";
import { traceFace } from "./rotation-system.ts";

export interface Pmfg {
  /** Edge pairs (i, j), i < j, in insertion order (the same form as tmfg's). */
  pairs: number[];
}

/** How the candidates were decided (tests and the bench read it; the result does not depend on it). */
export interface PmfgCounts {
  /** Kept without a test: between two components, or into a face both ends share. */
  bridges: number;
  faceKept: number;
  /** Refused without a test by a 3-connected set (RigidSets). */
  rigidRefused: number;
  /** Left-right tests run, and how many kept their candidate. */
  tests: number;
  testKept: number;
  /** RigidSets growth that re-reads faces off the embedding: set merges, node pairs joining. */
  merges: number;
  pairJoins: number;
}

/**
 * n*n row-major correlation matrix -> PMFG. Candidates in the strict order (d, i, j) with
 * d = √(2(1 − |ρ|)), graph.ts's edgeLength: decreasing |ρ|, the ties as mst breaks them, so the
 * PMFG contains exactly the mst graph's edges.
 */
export function pmfg(corr: Float64Array, n: number, counts?: PmfgCounts): Pmfg {
  const c = counts ?? { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };
  const pairs: number[] = [];
  if (n <= 4) {
    // 3(n−2) ≥ n(n−1)/2 here: every edge fits (n = 2 keeps its one edge, as tmfg does).
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
    return { pairs };
  }
  const target = 3 * (n - 2);
  const ws = workspace(n);
  const cand = candidateOrder(corr, n, ws);
  const { eu, ev, tester, plane, rigid, parent } = ws;
  plane.reset();
  rigid.reset(c);
  tester.forget();
  for (let v = 0; v < n; v++) parent[v] = v;
  // Each candidate, cheapest exact decision first (docs/engine.md § PMFG): an edge between two
  // components (union-find) keeps any planar graph planar; a 3-connected set may prove G + uv
  // non-planar (RigidSets); if u and v share a face of the kept plane embedding of G, the edge
  // fits there; only else the left-right test, whose embedding phase then re-embeds the component.
  const find = (v: number) => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]];
    return v;
  };
  let m = 0;
  for (let q = 0; q < cand.length && m < target; q++) {
    const i = Math.floor(cand[q] / n);
    const j = cand[q] - i * n;
    const ri = find(i);
    const rj = find(j);
    eu[m] = i;
    ev[m] = j;
    if (ri !== rj) {
      parent[ri] = rj;
      plane.addBridge(i, j);
      tester.kept(m, i, j);
      c.bridges++;
    } else if (rigid.refuses(i, j)) {
      c.rigidRefused++;
      continue;
    } else if (plane.addInFace(i, j) || plane.addByMoving(i, j)) {
      tester.kept(m, i, j);
      c.faceKept++;
    } else {
      c.tests++;
      if (!tester.isPlanarWith(n, m + 1, eu, ev, i)) continue;
      c.testKept++;
      plane.addEdge(i, j);
      if (plane.valid) {
        tester.embed(plane.cw, plane.ccw, plane.first, n);
        plane.check(i);
      }
    }
    m++;
    pairs.push(i, j);
    rigid.addEdge(i, j);
  }
  return { pairs };
}

/**
 * The typed arrays and structures of one pmfg() call, kept for the next call of the same n (a
 * rolling request's) up to CACHED_MAX_N nodes (~1.8 MB of n×n arrays there); larger n allocates per call.
 */
interface Workspace {
  n: number;
  eu: Int32Array;
  ev: Int32Array;
  parent: Int32Array;
  tester: PlanarityTester;
  plane: PlaneEmbedding;
  rigid: RigidSets;
  code: Int32Array;
  key: Float64Array;
  idx: Int32Array;
  tmp: Int32Array;
}
let cached: Workspace | null = null;
const CACHED_MAX_N = 256;

function workspace(n: number): Workspace {
  if (cached !== null && cached.n === n) return cached;
  const target = 3 * (n - 2);
  const count = (n * (n - 1)) / 2;
  const plane = new PlaneEmbedding(n);
  const ws: Workspace = {
    n,
    eu: new Int32Array(target),
    ev: new Int32Array(target),
    parent: new Int32Array(n),
    tester: new PlanarityTester(n, target),
    plane,
    rigid: new RigidSets(n, plane),
    code: new Int32Array(count),
    key: new Float64Array(count),
    idx: new Int32Array(count),
    tmp: new Int32Array(count),
  };
  if (n <= CACHED_MAX_N) cached = ws;
  return ws;
}

/**
 * Disjoint node sets S whose induced subgraph H = G[S] is 3-connected, each with the faces of H's
 * planar embedding — unique up to mirroring (Whitney), so a face is a fixed cycle of nodes. In any
 * planar embedding of G + uv, H is drawn that way, and a connected node set disjoint from S lies
 * inside one face of H, its edges into S ending on that face. So G + uv is non-planar (the
 * candidate is refused without a test) when, for some set S:
 * - u, v ∈ S and no face of H holds both (the edge would lie in one); or
 * - u ∈ S, v ∉ S and no face of H holds u and every attachment (neighbour in S) of v's component
 *   of G − S (that component plus uv is connected, so it lies in one face with all its ends); or
 * - u, v ∉ S in different components K, K′ of G − S and no face holds the attachments of both.
 * Sets start from a K4 (its 4 triangles), take a node with ≥ 3 neighbours in the set (it lies in
 * the one face holding them all, which it cuts into a fan) and kept edges between their nodes
 * (which cut a face in two): both keep H 3-connected and induced. Two sets joined by 3 disjoint
 * edges merge, and two adjacent outside nodes with ≥ 2 neighbours each in S (≥ 3 together) join
 * it; those faces are read off the plane embedding of G restricted to the new set. Missing a set
 * only costs tests.
 */
class RigidSets {
  /** Set id of each node (the seed's first node), −1 = in none. */
  private readonly set: Int32Array;
  private readonly size: Int32Array;
  private readonly adj: Uint8Array;
  private readonly nbr: Int32Array;
  private readonly deg: Int32Array;
  /** Face cycles (node lists) of every set; a face replaced by a cut keeps its id for one piece. */
  private readonly faces: number[][] = [];
  /** on[f][x] = 1 iff node x lies on face f. */
  private readonly on: Uint8Array[] = [];
  /** Ids of the faces through each node. */
  private readonly facesOf: number[][];
  /** Attachment marks of refresh(), by pass. */
  private readonly mark: Int32Array;
  private pass = 0;
  private readonly work: number[] = [];
  /** Per set id, refreshed lazily after a change: each node's component of G − S (−1 = in S). */
  private readonly comp: Int32Array[] = [];
  /** Per set id and component: the faces holding all its attachments (null = no attachment). */
  private readonly compFaces: (number[] | null)[][] = [];
  private readonly active: number[] = [];
  /** fresh[s] = 1 while set s's comp and compFaces hold for G; a change of s's members or faces clears it. */
  private readonly fresh: Uint8Array;
  private readonly stack: number[] = [];
  private readonly att: number[] = [];
  /** The active list needs rebuilding (a set's size changed). */
  private stale = true;
  /** Nodes that entered a set, sets dissolved (counters). */
  private entered = 0;
  private dissolved = 0;

  /** Restricted rotations of rebuild(): at b·n + a, the neighbour before a around b (within the set). */
  private readonly prev: Int32Array;
  private readonly traced: Int32Array;
  /** One face's nodes (traceFace; a plane graph has fewer than 6n half-edges). */
  private readonly face: Int32Array;
  /** Set pairs s·n + t whose matching grow() counted in its pass (by epoch). */
  private readonly checked: Int32Array;
  private epoch = 0;

  private counts: PmfgCounts = { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };

  constructor(
    private readonly n: number,
    private readonly plane: PlaneEmbedding,
  ) {
    this.prev = new Int32Array(n * n);
    this.traced = new Int32Array(n * n);
    this.face = new Int32Array(6 * n);
    this.checked = new Int32Array(n * n);
    this.fresh = new Uint8Array(n);
    this.set = new Int32Array(n).fill(-1);
    this.size = new Int32Array(n);
    this.adj = new Uint8Array(n * n);
    this.nbr = new Int32Array(n * n);
    this.deg = new Int32Array(n);
    this.facesOf = Array.from({ length: n }, () => []);
    this.mark = new Int32Array(n);
  }

  /** Back to the empty graph on n nodes (the epoch and pass counters run on). */
  reset(counts: PmfgCounts): void {
    this.counts = counts;
    this.fresh.fill(0);
    this.set.fill(-1);
    this.size.fill(0);
    this.adj.fill(0);
    this.deg.fill(0);
    for (let x = 0; x < this.n; x++) this.facesOf[x] = [];
    this.faces.length = 0;
    this.active.length = 0;
    this.work.length = 0;
    this.stale = true;
  }

  /** True when some set proves G + uv non-planar (u, v in one component of G, not adjacent). */
  refuses(u: number, v: number): boolean {
    if (this.stale) this.listSets();
    const { set, on } = this;
    for (const s of this.active) {
      const inU = set[u] === s;
      const inV = set[v] === s;
      if (inU && inV) {
        if (this.sharedFace(u, v) === -1) return true;
        continue;
      }
      if (this.fresh[s] === 0) this.components(s);
      const comp = this.comp[s];
      const held = this.compFaces[s];
      if (inU || inV) {
        const fs = held[comp[inU ? v : u]];
        const x = inU ? u : v;
        if (fs !== null && !onAny(on, fs, x)) return true;
      } else if (comp[u] !== comp[v]) {
        const a = held[comp[u]];
        const b = held[comp[v]];
        if (a !== null && b !== null && !shareAny(a, b)) return true;
      }
    }
    return false;
  }

  /** A kept edge (u, v). */
  addEdge(u: number, v: number): void {
    const { n, adj, nbr, deg, set } = this;
    // The edge's effect on each fresh set's components of G − S (a set whose members or faces
    // change below is cleared there): inside S it cuts a face (recompute); from S to a component
    // it adds an attachment; between two components it joins them; within one it changes nothing.
    for (let r = 0; r < n; r++) if (this.fresh[r] === 1) this.edgeInto(r, u, v);
    const members = this.entered;
    const dissolved = this.dissolved;
    adj[u * n + v] = adj[v * n + u] = 1;
    nbr[u * n + deg[u]++] = v;
    nbr[v * n + deg[v]++] = u;
    const s = set[u];
    const t = set[v];
    if (s !== -1 && s === t) {
      const f = this.sharedFace(u, v);
      // A kept edge inside S lies in a face of H; none would mean a bug: drop the set (costs tests only).
      if (f === -1) this.dissolve(s);
      else this.cut(f, [u, v], -1);
    } else if (s === -1 && t === -1) this.seed(u, v);
    else if (s === -1) this.tryJoin(u);
    else if (t === -1) this.tryJoin(v);
    // An edge inside a set that let no node in changes no other set nor outside node: nothing to grow.
    const inside = s !== -1 && s === t && this.work.length === 0;
    // While no node changed set, only pairs at u and v can have become able to grow.
    let focused = true;
    do {
      while (this.work.length > 0) {
        const y = this.work.pop()!;
        for (let a = 0; a < deg[y]; a++) if (set[nbr[y * n + a]] === -1) this.tryJoin(nbr[y * n + a]);
      }
      if (this.entered !== members) focused = false;
    } while (!inside && this.plane.valid && this.grow(focused ? u : -1, v));
    if (this.entered !== members || this.dissolved !== dissolved) this.stale = true;
  }

  /** Updates fresh set r's components for a new edge (u, v), or clears fresh[r]. */
  private edgeInto(r: number, u: number, v: number): void {
    const comp = this.comp[r];
    const held = this.compFaces[r];
    const cu = comp[u];
    const cv = comp[v];
    if (cu === -1 && cv === -1) this.fresh[r] = 0;
    else if (cu === -1 || cv === -1) {
      // x ∈ S becomes an attachment of the other end's component: keep the faces through x.
      const x = cu === -1 ? u : v;
      const k = cu === -1 ? cv : cu;
      const fs = held[k];
      if (fs === null) held[k] = this.facesOf[x].slice();
      else {
        // In place: each component's list is its own.
        const on = this.on;
        let w = 0;
        for (let q = 0; q < fs.length; q++) if (on[fs[q]][x] === 1) fs[w++] = fs[q];
        fs.length = w;
      }
    } else if (cu !== cv) {
      for (let z = 0; z < this.n; z++) if (comp[z] === cv) comp[z] = cu;
      const a = held[cu];
      const b = held[cv];
      if (a === null) held[cu] = b;
      else if (b !== null) {
        let w = 0;
        for (let q = 0; q < a.length; q++) if (b.includes(a[q])) a[w++] = a[q];
        a.length = w;
      }
      held[cv] = null;
    }
  }

  /**
   * Joins that need the faces recomputed, from the plane embedding of G restricted to the new set
   * (G[S′] is 3-connected, so that restriction is its one embedding): two sets with 3 disjoint
   * edges between them (removing 2 nodes leaves S − X, T − X connected and one of the 3 edges), and
   * two adjacent nodes outside every set with ≥ 2 neighbours each in S, ≥ 3 together. One per call.
   */
  private grow(u: number, v: number): boolean {
    const { n, nbr, deg, set } = this;
    const pass = ++this.epoch;
    // u ≥ 0: the pairs at u and v only (the new edge's); else every node's.
    for (let q = 0; q < (u >= 0 ? 2 : n); q++) {
      const x = u < 0 ? q : q === 0 ? u : v;
      const s = set[x];
      for (let a = 0; a < deg[x]; a++) {
        const y = nbr[x * n + a];
        const t = set[y];
        const lo = Math.min(s, t);
        const hi = Math.max(s, t);
        if (lo !== -1 && lo !== hi && this.checked[lo * n + hi] !== pass && this.matched3(lo, hi, pass)) {
          for (let z = 0; z < n; z++) if (set[z] === hi) this.enter(z, lo);
          this.size[hi] = 0;
          this.fresh[hi] = 0;
          this.rebuild(lo);
          this.counts.merges++;
          return true;
        }
        if (s === -1 && t === -1 && (x < y || u >= 0)) {
          const joined = this.pairSet(x, y);
          if (joined !== -1) {
            this.enter(x, joined);
            this.enter(y, joined);
            this.rebuild(joined);
            this.counts.pairJoins++;
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether 3 node-disjoint edges join sets s and t (greedy; missing one only costs tests). */
  private matched3(s: number, t: number, checked: number): boolean {
    const { n, nbr, deg, set, mark } = this;
    this.checked[s * n + t] = checked;
    const pass = ++this.pass;
    let k = 0;
    for (let x = 0; x < n && k < 3; x++) {
      if (set[x] !== s) continue;
      for (let a = 0; a < deg[x]; a++) {
        const y = nbr[x * n + a];
        if (set[y] === t && mark[y] !== pass) {
          mark[y] = pass;
          k++;
          break;
        }
      }
    }
    return k >= 3;
  }

  /** A set both x and y (adjacent, in no set) have ≥ 2 neighbours in, 3 distinct together; −1 = none. */
  private pairSet(x: number, y: number): number {
    const { n, nbr, deg, set, mark } = this;
    let inX = 0;
    let inY = 0;
    for (let a = 0; a < deg[x]; a++) if (set[nbr[x * n + a]] !== -1) inX++;
    for (let a = 0; a < deg[y]; a++) if (set[nbr[y * n + a]] !== -1) inY++;
    if (inX < 2 || inY < 2) return -1;
    for (let a = 0; a < deg[x]; a++) {
      const s = set[nbr[x * n + a]];
      if (s === -1) continue;
      const pass = ++this.pass;
      let kx = 0;
      let distinct = 0;
      for (let b = 0; b < deg[x]; b++) {
        const z = nbr[x * n + b];
        if (set[z] === s) {
          mark[z] = pass;
          kx++;
          distinct++;
        }
      }
      let ky = 0;
      for (let b = 0; b < deg[y]; b++) {
        const z = nbr[y * n + b];
        if (set[z] === s) {
          ky++;
          if (mark[z] !== pass) distinct++;
        }
      }
      if (kx >= 2 && ky >= 2 && distinct >= 3) return s;
    }
    return -1;
  }

  /** Set s's faces anew: the plane embedding's rotations restricted to s, faces traced (a, b) -> (b, before(a) at b). */
  private rebuild(s: number): void {
    const { n, set, plane, prev, traced, facesOf, face } = this;
    const { cw, first } = plane;
    for (let x = 0; x < n; x++) {
      if (set[x] !== s) continue;
      facesOf[x] = [];
      // x's neighbours in s, clockwise: each one's predecessor.
      const f = first[x];
      let last = -1;
      let head = -1;
      let w = f;
      do {
        if (set[w] === s) {
          if (last === -1) head = w;
          else prev[x * n + w] = last;
          last = w;
        }
        w = cw[x * n + w];
      } while (w !== f);
      prev[x * n + head] = last;
    }
    const epoch = ++this.epoch;
    for (let x = 0; x < n; x++) {
      if (set[x] !== s) continue;
      const f = first[x];
      let w = f;
      do {
        if (set[w] === s && traced[x * n + w] !== epoch) {
          const len = traceFace(prev, n, x, w, traced, epoch, face.length, face);
          // A face longer than a plane graph's half-edges: not an embedding (costs tests only).
          if (len < 0) {
            this.dissolve(s);
            return;
          }
          // A plain loop: Array.from(face.subarray(…)) made the rolling PMFG ~5% slower.
          const cycle: number[] = [];
          for (let p = 0; p < len; p++) cycle.push(face[p]);
          this.addFace(cycle);
        }
        w = cw[x * n + w];
      } while (w !== f);
    }
  }

  private sharedFace(u: number, v: number): number {
    for (const f of this.facesOf[u]) if (this.on[f][v] === 1) return f;
    return -1;
  }

  /** A K4 on u, v and two common neighbours outside every set starts a set. */
  private seed(u: number, v: number): void {
    const { n, adj, nbr, deg, set } = this;
    for (let a = 0; a < deg[u]; a++) {
      const w = nbr[u * n + a];
      if (set[w] !== -1 || !adj[v * n + w]) continue;
      for (let b = a + 1; b < deg[u]; b++) {
        const x = nbr[u * n + b];
        if (set[x] !== -1 || !adj[v * n + x] || !adj[w * n + x]) continue;
        for (const c of [
          [u, v, w],
          [u, w, x],
          [u, x, v],
          [v, x, w],
        ])
          this.addFace(c);
        for (const y of [u, v, w, x]) this.enter(y, u);
        return;
      }
    }
  }

  /** Node w (in no set) joins a set it has ≥ 3 neighbours in, inside the face holding them all. */
  private tryJoin(w: number): void {
    const { n, nbr, deg, set, on } = this;
    for (let a = 0; a < deg[w]; a++) {
      const s = set[nbr[w * n + a]];
      if (s === -1) continue;
      const inS: number[] = [];
      for (let b = 0; b < deg[w]; b++) if (set[nbr[w * n + b]] === s) inS.push(nbr[w * n + b]);
      if (inS.length < 3) continue;
      // At most one face holds 3 nodes of a 3-connected plane graph; G is planar, so one does.
      const f = this.facesOf[inS[0]].find((g) => inS.every((x) => on[g][x] === 1));
      if (f === undefined) this.dissolve(s);
      else {
        this.cut(f, inS, w);
        this.enter(w, s);
      }
      return;
    }
  }

  /**
   * Cuts face f at its nodes `at`: into the pieces between consecutive ones, each closed by the
   * new node w (w ≥ 0, a fan), or (w = −1, `at` = a chord's two ends) into the two sides of the chord.
   */
  private cut(f: number, at: number[], w: number): void {
    const c = this.faces[f];
    const pos: number[] = [];
    for (let p = 0; p < c.length; p++) if (at.includes(c[p])) pos.push(p);
    for (const x of c) {
      const l = this.facesOf[x];
      l.splice(l.indexOf(f), 1);
      this.on[f][x] = 0;
    }
    for (let q = 0; q < pos.length; q++) {
      const piece = w >= 0 ? [w] : [];
      const end = q + 1 < pos.length ? pos[q + 1] : pos[0] + c.length;
      for (let p = pos[q]; p <= end; p++) piece.push(c[p % c.length]);
      if (q > 0) this.addFace(piece);
      else {
        this.faces[f] = piece;
        for (const x of piece) {
          this.facesOf[x].push(f);
          this.on[f][x] = 1;
        }
      }
    }
  }

  private addFace(c: number[]): void {
    const id = this.faces.length;
    this.faces.push(c);
    // on[] outlives faces[] across reset(): its arrays are reused.
    let on = this.on[id];
    if (on === undefined) this.on.push((on = new Uint8Array(this.n)));
    else on.fill(0);
    for (const x of c) {
      this.facesOf[x].push(id);
      on[x] = 1;
    }
  }

  private enter(y: number, s: number): void {
    this.entered++;
    this.fresh[s] = 0;
    this.set[y] = s;
    this.size[s]++;
    this.work.push(y);
  }

  private dissolve(s: number): void {
    this.dissolved++;
    this.fresh[s] = 0;
    for (let x = 0; x < this.n; x++)
      if (this.set[x] === s) {
        this.set[x] = -1;
        this.facesOf[x] = [];
      }
    this.size[s] = 0;
  }

  /** The sets, largest first (the likeliest to refuse); their components are recomputed on demand. */
  private listSets(): void {
    this.stale = false;
    const { active, size } = this;
    active.length = 0;
    // By size descending, then id: an insertion sort (a few sets).
    for (let s = 0; s < this.n; s++) {
      if (size[s] === 0) continue;
      let p = active.length;
      active.push(s);
      while (p > 0 && size[active[p - 1]] < size[s]) {
        active[p] = active[p - 1];
        p--;
      }
      active[p] = s;
    }
  }

  /** Set s's components of G − S, and the faces able to hold each. */
  private components(s: number): void {
    const { n, nbr, deg, set, on, facesOf, mark, stack, att } = this;
    this.fresh[s] = 1;
    this.comp[s] ??= new Int32Array(n);
    const comp = this.comp[s];
    for (let x = 0; x < n; x++) comp[x] = set[x] === s ? -1 : -2;
    const held: (number[] | null)[] = [];
    for (let x = 0; x < n; x++) {
      if (comp[x] !== -2) continue;
      const id = held.length;
      const pass = ++this.pass;
      att.length = 0;
      comp[x] = id;
      stack.push(x);
      while (stack.length > 0) {
        const y = stack.pop()!;
        for (let a = 0; a < deg[y]; a++) {
          const z = nbr[y * n + a];
          if (comp[z] === -2) {
            comp[z] = id;
            stack.push(z);
          } else if (comp[z] === -1 && mark[z] !== pass) {
            mark[z] = pass;
            att.push(z);
          }
        }
      }
      if (att.length === 0) held.push(null);
      else {
        const fs: number[] = [];
        for (const f of facesOf[att[0]]) {
          const holds = on[f];
          let all = true;
          for (let k = 1; k < att.length && all; k++) all = holds[att[k]] === 1;
          if (all) fs.push(f);
        }
        held.push(fs);
      }
    }
    this.compFaces[s] = held;
  }
}

function onAny(on: Uint8Array[], faces: number[], x: number): boolean {
  for (const f of faces) if (on[f][x] === 1) return true;
  return false;
}

function shareAny(a: number[], b: number[]): boolean {
  for (const f of a) if (b.includes(f)) return true;
  return false;
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
function candidateOrder(corr: Float64Array, n: number, ws: Workspace): Int32Array {
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
