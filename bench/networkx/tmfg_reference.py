"""Literal reference TMFG (Massara, Di Matteo, Aste 2016, "Network filtering for big data:
Triangulated Maximally Filtered Graph", J. Complex Networks 5(2)), written from the paper's
algorithm for the golden fixtures; O(n^3), no caching. Tie rules are the engine's
(src/engine/tmfg.ts): strength ties to the lower index, gain ties to the older face, then the
lower node.
"""


def tmfg_edges(w):
    """w: n x n similarity (|rho|) as nested lists or an array. Returns (edges, faces)."""
    n = len(w)
    edges = []

    def add(i, j):
        edges.append((min(i, j), max(i, j)))

    if n <= 3:
        for i in range(n):
            for j in range(i + 1, n):
                add(i, j)
        return edges, ([(0, 1, 2)] if n == 3 else [])
    # Step 1: the four nodes of largest strength form the initial tetrahedron.
    strength = []
    for i in range(n):
        s = 0.0
        for j in range(n):
            if j != i:
                s += w[i][j]
        strength.append(s)
    v = sorted(range(n), key=lambda i: (-strength[i], i))[:4]
    for a in range(4):
        for b in range(a + 1, 4):
            add(v[a], v[b])
    faces = [(v[0], v[1], v[2]), (v[0], v[1], v[3]), (v[0], v[2], v[3]), (v[1], v[2], v[3])]
    alive = [True] * 4
    outside = [x for x in range(n) if x not in v]
    # Step 2: insert the (node, face) pair of largest gain until every node is in.
    while outside:
        best = None
        for f, (a, b, c) in enumerate(faces):
            if not alive[f]:
                continue
            for x in outside:
                gain = w[x][a] + w[x][b] + w[x][c]
                if best is None or gain > best[0]:
                    best = (gain, f, x)
        _, f, x = best
        a, b, c = faces[f]
        alive[f] = False
        outside.remove(x)
        add(x, a)
        add(x, b)
        add(x, c)
        faces += [(a, b, x), (b, c, x), (a, c, x)]
        alive += [True, True, True]
    return edges, [fc for fc, ok in zip(faces, alive) if ok]
