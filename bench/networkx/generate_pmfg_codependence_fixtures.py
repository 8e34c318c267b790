#!/usr/bin/python3
"""Golden fixtures for issue 26 (research round 2): PMFG, Kendall's tau-b and distance correlation
(Debian's python3-networkx 2.8, python3-scipy, python3-numpy).

- pmfg: the literal reference of pmfg_reference.py (networkx check_planarity per candidate) on
  correlation matrices of generated panels (n = 5 ... 50), on matrices with many exact ties
  (rounded, or all equal), and on NIFTY-50 windows;
- planarity: random graphs with n - 1 ... 3n - 6 edges, labelled by nx.check_planarity;
- kendall / distance: scipy.stats.kendalltau and the literal distance correlation of
  codependence_reference.py on generated panels (sizes n = 3, 4, 5, 8, 50; panels with repeated
  values, duplicated, negated and constant series; L = 2 and 3) and on NIFTY-50 windows.

Usage: /usr/bin/python3 bench/networkx/generate_pmfg_codependence_fixtures.py [DATA_DIR]
Writes test/fixtures/engine/pmfg-codependence-golden.json. The NIFTY-50 cases (DATA_DIR as in
generate_fixtures.py) hold only symbols, edges and matrices derived from the data; without the
data they are left out and the tests that need them skip.
"""
import json
import math
import os
import sys

import networkx as nx
import numpy as np
import scipy

from bench_networkx import window_returns_at
from codependence_reference import distance_matrix, kendall_matrix
from generate_fixtures import OUT_DIR, corr_matrix, default_data_dir, load_dir
from pmfg_reference import pmfg_edges

SEED = 26


def factor_panel(rng, n, L):
    """n series of L returns of a one-factor model (betas spread in [-1, 1.5])."""
    f = rng.normal(0, 0.01, L)
    return np.array([rng.uniform(-1, 1.5) * f + rng.normal(0, 0.01, L) for _ in range(n)])


def sym(c):
    """Upper triangle mirrored, unit diagonal: the engine and the reference read only i < j."""
    c = np.array(c, dtype=float)
    n = len(c)
    for i in range(n):
        c[i, i] = 1.0
        for j in range(i + 1, n):
            c[j, i] = c[i, j]
    return c


def pmfg_case(cid, c):
    c = sym(c)
    n = len(c)
    edges = pmfg_edges(c.tolist())
    G = nx.Graph(edges)
    if n >= 3:
        assert nx.check_planarity(G)[0] and len(edges) == 3 * (n - 2), cid
    return {"id": cid, "n": n, "corr": [float(x) for x in c.flatten()], "edges": [list(e) for e in edges]}


def pmfg_cases(rng):
    cases = []
    for n in [2, 3, 4, 5, 6, 8, 12, 20, 30, 50]:
        cases.append(pmfg_case(f"factor-n{n}", np.corrcoef(factor_panel(rng, n, 60))))
    # Exact ties in |rho| (and in d): the (i, j) tie-break decides.
    cases.append(pmfg_case("rounded-1dp-n12", np.round(np.corrcoef(factor_panel(rng, 12, 60)), 1)))
    cases.append(pmfg_case("rounded-1dp-n30", np.round(np.corrcoef(factor_panel(rng, 30, 60)), 1)))
    cases.append(pmfg_case("signs-n10", np.where(rng.random((10, 10)) < 0.5, -0.5, 0.5)))
    cases.append(pmfg_case("all-equal-n10", np.full((10, 10), 0.3)))
    return cases


def random_triangulation(rng, n):
    """A maximal planar graph: a triangle, then each node into a random face, then random edge flips."""
    G = nx.Graph([(0, 1), (1, 2), (0, 2)])
    faces = [(0, 1, 2), (0, 1, 2)]
    for v in range(3, n):
        a, b, c = faces.pop(int(rng.integers(len(faces))))
        G.add_edges_from([(v, a), (v, b), (v, c)])
        faces += [(a, b, v), (b, c, v), (a, c, v)]
    for _ in range(2 * n):
        u, v = list(G.edges())[int(rng.integers(G.number_of_edges()))]
        common = list(nx.common_neighbors(G, u, v))
        if len(common) == 2 and not G.has_edge(*common):
            G.remove_edge(u, v)
            G.add_edge(*common)
            if not nx.check_planarity(G)[0]:  # a flip of a non-facial pair; undo
                G.remove_edge(*common)
                G.add_edge(u, v)
    return G


def planarity_cases(rng):
    cases = []
    for k in range(400):
        n = int(rng.integers(5, 61))
        if k % 2 == 0:
            m = int(rng.integers(n - 1, 3 * n - 5))
            G = nx.gnm_random_graph(n, m, seed=int(rng.integers(0, 2**31)))
        else:
            # Near-maximal planar graphs, with a few edges removed and a few added: hard cases.
            G = random_triangulation(rng, n)
            edges = list(G.edges())
            for q in rng.choice(len(edges), size=int(rng.integers(1, 6)), replace=False):
                G.remove_edge(*edges[q])
            for _ in range(int(rng.integers(0, 3))):
                u, v = (int(x) for x in rng.choice(n, size=2, replace=False))
                G.add_edge(u, v)
        perm = rng.permutation(n)  # node labels shuffled: no DFS order favoured
        cases.append({"n": n, "edges": [[int(perm[u]), int(perm[v])] for u, v in G.edges()],
                      "planar": bool(nx.check_planarity(G)[0])})
    return cases


def codependence_case(cid, rets):
    rets = np.array(rets, dtype=float)
    return {"id": cid, "returns": rets.tolist(), "kendall": kendall_matrix(rets), "distance": distance_matrix(rets)}


def codependence_cases(rng):
    cases = []
    for n, L in [(3, 30), (4, 40), (5, 60), (8, 120), (50, 60), (50, 250)]:
        cases.append(codependence_case(f"factor-n{n}-L{L}", factor_panel(rng, n, L)))
    # Repeated values (ticks of 0.01 in -0.03 ... 0.03), a duplicated, a negated, an affine and a
    # constant series.
    ties = rng.integers(-3, 4, size=(6, 40)) * 0.01
    ties = np.vstack([ties, ties[1], -ties[2], 2 * ties[3] + 0.01, np.full(40, 0.02)])
    cases.append(codependence_case("ties-n10-L40", ties))
    cases.append(codependence_case("ties-n5-L7", rng.integers(0, 3, size=(5, 7)) * 1.0))
    cases.append(codependence_case("tiny-n4-L2", rng.normal(size=(4, 2))))
    cases.append(codependence_case("tiny-n4-L3", np.array([[1.0, 2, 3], [3, 2, 1], [1, 1, 2], [5, 5, 5]])))
    return cases


def nifty_cases(data_dir):
    series = load_dir(data_dir)
    symbols = sorted(series)
    labels = sorted(set().union(*(series[s].index for s in symbols)))
    closes = {s: series[s].reindex(labels).to_numpy(dtype=float) for s in symbols}
    out = {"pmfg": [], "codependence": []}
    for asof in ["2021-03-31", "2023-08-31", "2025-09-30"]:
        t = max(k for k, l in enumerate(labels) if l[:10] <= asof)
        nodes, rets = window_returns_at(symbols, closes, t, 60)
        c = corr_matrix(rets, "pearson")
        edges = pmfg_edges(c.tolist())
        assert nx.check_planarity(nx.Graph(edges))[0] and len(edges) == 3 * (len(nodes) - 2)
        out["pmfg"].append({"id": f"{asof}-lb60", "asof": asof, "lookback": 60, "asof_date": labels[t][:10],
                            "nodes": nodes, "edges": [[nodes[i], nodes[j]] for i, j in edges]})
    for asof, lookback in [("2024-06-28", 60), ("2025-09-30", 250)]:
        t = max(k for k, l in enumerate(labels) if l[:10] <= asof)
        nodes, rets = window_returns_at(symbols, closes, t, lookback)
        out["codependence"].append({"id": f"{asof}-lb{lookback}", "asof": asof, "lookback": lookback,
                                    "asof_date": labels[t][:10], "nodes": nodes,
                                    "kendall": kendall_matrix(rets), "distance": distance_matrix(rets)})
    return out


if __name__ == "__main__":
    data_dir = sys.argv[1] if len(sys.argv) > 1 else default_data_dir()
    rng = np.random.default_rng(SEED)
    doc = {"generator": "bench/networkx/generate_pmfg_codependence_fixtures.py", "networkx": nx.__version__,
           "scipy": scipy.__version__, "numpy": np.__version__, "seed": SEED,
           "pmfg": pmfg_cases(rng), "planarity": planarity_cases(rng), "codependence": codependence_cases(rng)}
    if os.path.isdir(data_dir):
        doc["nifty"] = nifty_cases(data_dir)
    else:
        print(f"no NIFTY-50 data at {data_dir}: the nifty cases are left out", file=sys.stderr)
    with open(os.path.join(OUT_DIR, "pmfg-codependence-golden.json"), "w") as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote pmfg-codependence-golden.json: {len(doc['pmfg'])} pmfg, {len(doc['planarity'])} planarity, "
          f"{len(doc['codependence'])} codependence, nifty: {'yes' if 'nifty' in doc else 'no'}")
