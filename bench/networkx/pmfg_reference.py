"""Literal reference PMFG (Tumminello, Aste, Di Matteo, Mantegna 2005, "A tool for filtering
information in complex systems", PNAS 102(30)), written from the paper's algorithm for the golden
fixtures: candidate edges by decreasing |rho|, each added and kept only if networkx's
check_planarity still says planar, stopping at 3(n-2) edges. No shortcuts (every candidate is
tested on the whole graph). The order is the engine's (src/engine/pmfg.ts): by
d = sqrt(2(1 - |rho|)) ascending, then (i, j) ascending, so equal |rho| keep the lower pair first.
"""
import math

import networkx as nx


def candidate_order(c):
    """c: n x n correlation (nested lists or an array). Pairs (i, j), i < j, in the PMFG's order."""
    n = len(c)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    return sorted(pairs, key=lambda p: (math.sqrt(2 * (1 - abs(float(c[p[0]][p[1]])))), p[0], p[1]))


def pmfg_edges(c):
    """Edges (i, j), i < j, in insertion order. n <= 4 gives the complete graph."""
    n = len(c)
    if n <= 4:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    G = nx.Graph()
    G.add_nodes_from(range(n))
    edges = []
    for i, j in candidate_order(c):
        if len(edges) == 3 * (n - 2):
            break
        G.add_edge(i, j)
        if nx.check_planarity(G)[0]:
            edges.append((i, j))
        else:
            G.remove_edge(i, j)
    return edges
