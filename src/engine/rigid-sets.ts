/**
 * The PMFG's refusals without a test (docs/engine.md § PMFG, rule 2). Disjoint node sets S whose
 * induced subgraph H = G[S] is 3-connected, each with the faces of H's planar embedding — unique
 * up to mirroring (Whitney), so a face is a fixed cycle of nodes. In any planar embedding of G + uv, H is drawn that way, and a connected node set disjoint from S lies
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
 * only costs tests. The sets' faces are kept in rigid-set-faces.ts; the components of G − S and
 * the faces able to hold each, in rigid-set-components.ts.
 */
import type { PlaneEmbedding } from "./plane-embedding.ts";
import { RigidSetComponents } from "./rigid-set-components.ts";
import { RigidSetFaces } from "./rigid-set-faces.ts";

/** The sets of the kept graph G, grown as pmfg() keeps edges, and the candidates they refuse. */
export class RigidSets {
  /** Set id of each node (the seed's first node), −1 = in none. */
  private readonly set: Int32Array;
  private readonly size: Int32Array;
  private readonly adj: Uint8Array;
  private readonly nbr: Int32Array;
  private readonly deg: Int32Array;
  private readonly faces: RigidSetFaces;
  private readonly components: RigidSetComponents;
  /** Neighbour marks of matched3() and pairSet(), by pass. */
  private readonly mark: Int32Array;
  private pass = 0;
  private readonly work: number[] = [];
  private readonly active: number[] = [];
  /** The active list needs rebuilding (a set's size changed). */
  private stale = true;
  /** Nodes that entered a set, sets dissolved (counters). */
  private entered = 0;
  private dissolved = 0;

  /** Set pairs s·n + t whose matching grow() counted in its pass (by epoch). */
  private readonly checked: Int32Array;
  private epoch = 0;

  /** PmfgCounts' merges and pairJoins (reset() is given the call's counts). */
  private counts = { merges: 0, pairJoins: 0 };

  constructor(
    private readonly n: number,
    private readonly plane: PlaneEmbedding,
  ) {
    this.checked = new Int32Array(n * n);
    this.set = new Int32Array(n).fill(-1);
    this.size = new Int32Array(n);
    this.adj = new Uint8Array(n * n);
    this.nbr = new Int32Array(n * n);
    this.deg = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.faces = new RigidSetFaces(n);
    this.components = new RigidSetComponents(n, this.set, this.nbr, this.deg, this.faces);
  }

  /** Back to the empty graph on n nodes (the epoch and pass counters run on). */
  reset(counts: { merges: number; pairJoins: number }): void {
    this.counts = counts;
    this.components.reset();
    this.set.fill(-1);
    this.size.fill(0);
    this.adj.fill(0);
    this.deg.fill(0);
    this.faces.reset();
    this.active.length = 0;
    this.work.length = 0;
    this.stale = true;
  }

  /** True when some set proves G + uv non-planar (u, v in one component of G, not adjacent). */
  refuses(u: number, v: number): boolean {
    if (this.stale) this.listSets();
    const { set } = this;
    for (const s of this.active) {
      const inU = set[u] === s;
      const inV = set[v] === s;
      if (inU && inV) {
        if (this.faces.shared(u, v) === -1) return true;
      } else if (this.components.refuses(s, u, v, inU, inV)) return true;
    }
    return false;
  }

  /** A kept edge (u, v). */
  addEdge(u: number, v: number): void {
    const { n, adj, nbr, deg, set } = this;
    // The edge's effect on each set's components of G − S (a set whose members or faces change
    // below is marked changed there).
    this.components.addEdge(u, v);
    const members = this.entered;
    const dissolved = this.dissolved;
    adj[u * n + v] = adj[v * n + u] = 1;
    nbr[u * n + deg[u]++] = v;
    nbr[v * n + deg[v]++] = u;
    const s = set[u];
    const t = set[v];
    if (s !== -1 && s === t) {
      const f = this.faces.shared(u, v);
      // A kept edge inside S lies in a face of H; none would mean a bug: drop the set (costs tests only).
      if (f === -1) this.dissolve(s);
      else this.faces.cut(f, [u, v], -1);
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
          this.components.changed(hi);
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

  /** Set s's faces anew, read off the plane embedding (a face that does not close drops the set: costs tests only). */
  private rebuild(s: number): void {
    if (!this.faces.readOff(this.set, s, this.plane)) this.dissolve(s);
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
          this.faces.add(c);
        for (const y of [u, v, w, x]) this.enter(y, u);
        return;
      }
    }
  }

  /** Node w (in no set) joins a set it has ≥ 3 neighbours in, inside the face holding them all. */
  private tryJoin(w: number): void {
    const { n, nbr, deg, set } = this;
    for (let a = 0; a < deg[w]; a++) {
      const s = set[nbr[w * n + a]];
      if (s === -1) continue;
      const inS: number[] = [];
      for (let b = 0; b < deg[w]; b++) if (set[nbr[w * n + b]] === s) inS.push(nbr[w * n + b]);
      if (inS.length < 3) continue;
      // At most one face holds 3 nodes of a 3-connected plane graph; G is planar, so one does.
      const f = this.faces.holding(inS);
      if (f === undefined) this.dissolve(s);
      else {
        this.faces.cut(f, inS, w);
        this.enter(w, s);
      }
      return;
    }
  }

  private enter(y: number, s: number): void {
    this.entered++;
    this.components.changed(s);
    this.set[y] = s;
    this.size[s]++;
    this.work.push(y);
  }

  private dissolve(s: number): void {
    this.dissolved++;
    this.components.changed(s);
    for (let x = 0; x < this.n; x++)
      if (this.set[x] === s) {
        this.set[x] = -1;
        this.faces.facesOf[x] = [];
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
}
