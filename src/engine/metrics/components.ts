import type { Graph } from "../graph.ts";

/**
 * Connected components by breadth-first search: `members` lists each component's nodes in BFS
 * order from its smallest node; components come in order of their smallest node.
 */
export function connectedComponents(g: Graph): { comp: Int32Array; members: Int32Array[] } {
  const comp = new Int32Array(g.n).fill(-1);
  const members: Int32Array[] = [];
  const queue = new Int32Array(g.n);
  for (let r = 0; r < g.n; r++) {
    if (comp[r] !== -1) continue;
    const c = members.length;
    let head = 0;
    let tail = 0;
    queue[tail++] = r;
    comp[r] = c;
    while (head < tail) {
      const v = queue[head++];
      for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) {
        if (comp[g.nbr[p]] === -1) {
          comp[g.nbr[p]] = c;
          queue[tail++] = g.nbr[p];
        }
      }
    }
    members.push(queue.slice(0, tail));
  }
  return { comp, members };
}
