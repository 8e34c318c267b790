#!/usr/bin/python3
"""Golden fixtures for signal or noise (Debian's python3-numpy, -networkx, -sklearn):

- the spectrum (numpy.linalg.eigh), denoise=mp, detone=k and both, on generated panels (n > L,
  ties, a duplicated series) and NIFTY-50 windows;
- SplitMix64 row draws, and bootstrap=B replicates rebuilt from them: each answer edge's count of
  replicates holding it (exact) and each node's 5th/95th percentiles per metric (networkx metrics,
  numpy.percentile), on the same panels;
- sklearn.metrics.adjusted_rand_score on labelings, for community_stability.

Generated panels carry their returns; NIFTY-50 cases only the as-of and lookback (the data are not
ours to redistribute; the tests read them as generate_fixtures.py does).
Usage: /usr/bin/python3 bench/networkx/generate_signal_noise_fixtures.py [DATA_DIR]
Writes test/fixtures/engine/signal-noise-golden.json.
"""
import json
import math
import os
import sys

import networkx as nx
import numpy as np
import sklearn
from sklearn.metrics import adjusted_rand_score

from generate_fixtures import METRICS, OUT_DIR, corr_matrix, default_data_dir, edge_pairs, load_dir, metrics_of
from generate_research_fixtures import window_returns
from signal_noise_reference import filters, percentile_pair, replicate_rows, spectrum


def factor_panel(rng, n, L, loading=0.6):
    m = rng.normal(0, 0.01, L)
    return np.array([loading * m + rng.normal(0, 0.01, L) for _ in range(n)])


def generated_panels():
    rng = np.random.default_rng(46)
    factor = factor_panel(rng, 20, 60)
    wide = factor_panel(rng, 40, 25, 0.4)  # n > L: rank-deficient, L - 1 non-zero eigenvalues
    ties = np.round(factor_panel(rng, 12, 40), 2)  # returns on a 0.01 grid: ties in ranks and rows
    ties[5] = ties[2]  # a duplicated series: rho = 1 exactly
    ties[7] = -ties[3]
    return {"factor-20x60": factor, "wide-40x25": wide, "ties-12x40": ties}


def matrix_list(c):
    return [[float(x) for x in row] for row in c]


def filter_expected(rets, L, method="pearson"):
    c = corr_matrix(list(rets), method)
    return {
        "spectrum": spectrum(c, L),
        "denoise": matrix_list(filters(c, L, True, 0)),
        "detone1": matrix_list(filters(c, L, False, 1)),
        "detone2": matrix_list(filters(c, L, False, 2)),
        "denoise_detone1": matrix_list(filters(c, L, True, 1)),
    }


def replicate_graph(c, n, method, knn_k, threshold):
    pairs = edge_pairs(c, n, method, knn_k, threshold)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i, j in pairs:
        rho = float(c[i, j])
        G.add_edge(i, j, weight=abs(rho), d=math.sqrt(2 * (1 - abs(rho))))
    return pairs, G


def window_corr(rets, corr_method, denoise, k, L):
    c = corr_matrix(list(rets), corr_method)
    c = np.where(np.isnan(c), 0.0, c)
    np.fill_diagonal(c, 1.0)
    return filters(c, L, denoise, k)


def bootstrap_expected(rets, p):
    n, L = rets.shape
    c = window_corr(rets, p["corr_method"], p["denoise"], p["detone"], L)
    pairs, _ = replicate_graph(c, n, p["graph_method"], p["knn_k"], p["threshold"])
    held = {e: 0 for e in pairs}
    samples = {m: [[] for _ in range(n)] for m in METRICS}
    for b in range(p["B"]):
        rows = replicate_rows(p["seed"], b, L)
        res = rets[:, rows]
        cb = window_corr(res, p["corr_method"], p["denoise"], p["detone"], L)
        pb, G = replicate_graph(cb, n, p["graph_method"], p["knn_k"], p["threshold"])
        for e in pb:
            if e in held:
                held[e] += 1
        vals = metrics_of(G, list(range(n)))
        for m in METRICS:
            for i in range(n):
                samples[m][i].append(vals[m][i])
    p05 = {m: [percentile_pair(samples[m][i])[0] for i in range(n)] for m in METRICS}
    p95 = {m: [percentile_pair(samples[m][i])[1] for i in range(n)] for m in METRICS}
    return {"first_rows": replicate_rows(p["seed"], 0, L), "edges": [[i, j, held[(i, j)]] for i, j in pairs],
            "p05": p05, "p95": p95}


def bparams(**kw):
    p = {"corr_method": "pearson", "denoise": False, "detone": 0, "graph_method": "mst", "knn_k": 4, "threshold": 0.5,
         "B": 40, "seed": 0}
    p.update(kw)
    return p


GENERATED_BOOTSTRAP = [
    ("factor-20x60", bparams(B=60, seed=7)),
    ("factor-20x60", bparams(graph_method="knn", knn_k=3, B=30, seed=4294967295)),
    ("factor-20x60", bparams(denoise=True, detone=1, B=30, seed=3)),
    ("wide-40x25", bparams(graph_method="threshold", threshold=0.3, B=25, seed=11)),
    ("ties-12x40", bparams(corr_method="spearman", B=50, seed=5)),
    ("ties-12x40", bparams(B=50, seed=5)),
]
NIFTY_FILTERS = [("2021-03-31", 60), ("2024-06-28", 60), ("2024-06-28", 250)]
NIFTY_BOOTSTRAP = [("2024-06-28", 60, bparams(B=200, seed=0)),
                   ("2021-03-31", 60, bparams(graph_method="knn", B=40, seed=12345, denoise=True))]


def ari_cases():
    rng = np.random.default_rng(7)
    cases = [([0, 0, 1, 1], [0, 0, 1, 1]), ([0, 0, 0, 0], [0, 0, 0, 0]), ([0, 1, 2, 3], [0, 1, 2, 3]),
             ([0, 0, 0, 0], [0, 1, 2, 3]), ([0, 0, 1, 1], [1, 1, 0, 0]), ([0, 0, 1, 2], [0, 1, 1, 2])]
    for n, k in [(10, 3), (50, 5), (50, 2), (7, 7)]:
        for _ in range(3):
            cases.append((rng.integers(0, k, n).tolist(), rng.integers(0, k, n).tolist()))
    return [{"a": a, "b": b, "ari": float(adjusted_rand_score(a, b))} for a, b in cases]


def main():
    data_dir = sys.argv[1] if len(sys.argv) > 1 else default_data_dir()
    panels = generated_panels()
    out = {"generator": "bench/networkx/generate_signal_noise_fixtures.py", "numpy": np.__version__,
           "networkx": nx.__version__, "sklearn": sklearn.__version__,
           "panels": {k: [[float(x) for x in r] for r in v] for k, v in panels.items()}}
    out["splitmix"] = [{"seed": s, "b": b, "L": L, "rows": replicate_rows(s, b, L)}
                       for s, b, L in [(0, 0, 10), (1, 0, 60), (0, 999, 250), (4294967295, 7, 60), (123456789, 3, 1000)]]
    out["filters"] = []
    for name, rets in panels.items():
        for method in ["pearson", "spearman"]:
            out["filters"].append({"id": f"{name}-{method}", "panel": name, "corr_method": method,
                                   "expected": filter_expected(rets, rets.shape[1], method)})
    out["bootstrap"] = [{"id": f"{name}-{p['graph_method']}-{p['corr_method']}-B{p['B']}", "panel": name, "params": p,
                         "expected": bootstrap_expected(panels[name], p)} for name, p in GENERATED_BOOTSTRAP]
    out["ari"] = ari_cases()
    out["nifty_filters"] = []
    out["nifty_bootstrap"] = []
    if os.path.isdir(data_dir):
        series = load_dir(data_dir)
        for asof, lookback in NIFTY_FILTERS:
            date, nodes, rets = window_returns(series, asof, lookback)
            out["nifty_filters"].append({"asof": asof, "lookback": lookback, "asof_date": date, "nodes": nodes,
                                         "expected": filter_expected(rets, lookback)})
        for asof, lookback, p in NIFTY_BOOTSTRAP:
            date, nodes, rets = window_returns(series, asof, lookback)
            out["nifty_bootstrap"].append({"asof": asof, "lookback": lookback, "asof_date": date, "nodes": nodes,
                                           "params": p, "expected": bootstrap_expected(rets, p)})
    else:
        print(f"NIFTY-50 data not found at {data_dir}: generated panels only", file=sys.stderr)
    path = os.path.join(OUT_DIR, "signal-noise-golden.json")
    with open(path, "w") as f:
        json.dump(out, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
