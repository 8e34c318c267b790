#!/usr/bin/python3
"""Golden fixtures for the research additions of issue 15 (Debian's python3-networkx 2.8,
python3-pandas, python3-sklearn):

- graph statistics per as-of (mean |rho| over edges, Onnela's normalised tree length, networkx's
  average_shortest_path_length on d, null when disconnected) for every graph method;
- TMFG edges from the literal reference (tmfg_reference.py), checked planar by networkx, and the
  networkx metrics on that graph;
- correlation matrices for corr_method=ewma (pandas ewm(halflife).corr), shrinkage=ledoit_wolf
  (sklearn.covariance.LedoitWolf) and market_mode=remove (OLS residuals on the equal-weighted
  market return, numpy lstsq).

Usage: /usr/bin/python3 bench/networkx/generate_research_fixtures.py [DATA_DIR]
DATA_DIR defaults as in generate_fixtures.py: $GRAPH_STATS_NIFTY_DIR, else shared/data beside the repository.
Writes test/fixtures/engine/research-golden.json.
"""
import json
import math
import os
import sys

import networkx as nx
import numpy as np
import pandas as pd
import sklearn
from sklearn.covariance import LedoitWolf

from generate_fixtures import OUT_DIR, corr_matrix, default_data_dir, edge_pairs, load_dir, metrics_of
from tmfg_reference import tmfg_edges

ASOFS = ["2021-03-31", "2023-08-31", "2025-09-30"]


def window_returns(series, asof, lookback, symbols=None):
    """Participating symbols and their window log returns (the engine's drop rules)."""
    symbols = symbols or sorted(series)
    labels = sorted(set().union(*(series[s].index for s in symbols)))
    t = max(k for k, l in enumerate(labels) if l[:10] <= asof)
    nodes, rets = [], []
    for s in symbols:
        w = series[s].reindex(labels).to_numpy(dtype=float)[t - lookback:t + 1]
        if not np.all(w > 0):
            continue
        r = np.log(w[1:] / w[:-1])
        if np.all(r == r[0]):
            continue
        nodes.append(s)
        rets.append(r)
    return labels[t][:10], nodes, np.array(rets)


def remove_market(rets):
    """Residuals of each series regressed (with intercept) on the equal-weighted mean return."""
    m = rets.mean(axis=0)
    a = np.column_stack([np.ones_like(m), m])
    out = []
    for r in rets:
        coef, *_ = np.linalg.lstsq(a, r, rcond=None)
        out.append(r - a @ coef)
    return np.array(out)


def ewma_corr(rets, halflife):
    df = pd.DataFrame(rets.T)
    c = df.ewm(halflife=halflife).corr().loc[len(df) - 1].to_numpy()
    np.fill_diagonal(c, 1.0)
    return np.clip(c, -1, 1)


def lw_corr(rets):
    cov = LedoitWolf().fit(rets.T).covariance_
    sd = np.sqrt(np.diag(cov))
    c = cov / np.outer(sd, sd)
    np.fill_diagonal(c, 1.0)
    return np.clip(c, -1, 1)


def graph_of(c, nodes, method):
    n = len(nodes)
    if method == "tmfg":
        pairs, faces = tmfg_edges([[abs(c[i, j]) for j in range(n)] for i in range(n)])
        pairs = sorted(pairs)
    else:
        pairs, faces = edge_pairs(c, n, method, 4, 0.5), None
    G = nx.Graph()
    G.add_nodes_from(nodes)
    for i, j in pairs:
        rho = float(c[i, j])
        G.add_edge(nodes[i], nodes[j], weight=abs(rho), d=math.sqrt(2 * (1 - abs(rho))))
    return G, pairs, faces


def stats_of(G, c, n):
    m = G.number_of_edges()
    mean_abs = sum(d["weight"] for _, _, d in G.edges(data=True)) / m if m else None
    # Onnela's normalised tree length over networkx's minimum spanning tree on d.
    tree_length = sum(math.sqrt(2 * (1 - abs(c[i, j]))) for i, j in edge_pairs(c, n, "mst", 4, 0.5)) / (n - 1)
    aspl = nx.average_shortest_path_length(G, weight="d") if nx.is_connected(G) else None
    return {"mean_abs_corr": mean_abs, "tree_length": tree_length, "avg_shortest_path": aspl}


def graph_cases(series):
    cases = []
    for asof in ASOFS:
        date, nodes, rets = window_returns(series, asof, 60)
        c = corr_matrix(list(rets), "pearson")
        for method in ["mst", "knn", "threshold", "complete", "tmfg"]:
            G, pairs, faces = graph_of(c, nodes, method)
            case = {"id": f"{asof}-{method}", "input": {"asof": asof, "lookback": 60, "graph_method": method},
                    "expected": {"asof_date": date, "nodes": nodes, "stats": stats_of(G, c, len(nodes)),
                                 "edges": [[nodes[i], nodes[j]] for i, j in pairs]}}
            if method == "tmfg":
                assert nx.check_planarity(G)[0], "reference TMFG must be planar"
                assert len(pairs) == 3 * (len(nodes) - 2)
                case["expected"]["metrics"] = metrics_of(G, nodes)
            cases.append(case)
    return cases


def corr_cases(series):
    cases = []
    specs = [
        ("2023-08-31", 60, {"corr_method": "ewma", "halflife": 20}),
        ("2025-09-30", 120, {"corr_method": "ewma", "halflife": 7.5}),
        ("2021-03-31", 60, {"shrinkage": "ledoit_wolf"}),
        ("2025-09-30", 250, {"shrinkage": "ledoit_wolf"}),
        ("2023-08-31", 60, {"market_mode": "remove"}),
        ("2025-09-30", 60, {"market_mode": "remove", "shrinkage": "ledoit_wolf"}),
        ("2024-06-28", 60, {"market_mode": "remove", "corr_method": "ewma", "halflife": 10}),
        ("2024-06-28", 60, {"market_mode": "remove", "corr_method": "spearman"}),
    ]
    for asof, lookback, opts in specs:
        date, nodes, rets = window_returns(series, asof, lookback)
        if opts.get("market_mode") == "remove":
            rets = remove_market(rets)
        method = opts.get("corr_method", "pearson")
        if method == "ewma":
            c = ewma_corr(rets, opts["halflife"])
        elif opts.get("shrinkage") == "ledoit_wolf":
            c = lw_corr(rets)
        else:
            c = corr_matrix(list(rets), method)
        cid = "-".join([asof, f"lb{lookback}"] + [f"{k}={v}" for k, v in opts.items()])
        cases.append({"id": cid, "input": {"asof": asof, "lookback": lookback, **opts},
                      "expected": {"asof_date": date, "nodes": nodes,
                                   "corr": [[float(x) for x in row] for row in c]}})
    return cases


def small_stats_cases():
    """Hand-made graphs where the statistics are undefined or degenerate."""
    rng = np.random.default_rng(15)
    base = rng.normal(0, 0.01, 40)
    rets = np.array([base + rng.normal(0, s, 40) for s in [0.002, 0.003, 0.05, 0.05, 0.004]])
    out = []
    for method, thr in [("threshold", 0.5), ("threshold", 1.0), ("tmfg", 0.5), ("mst", 0.5)]:
        c = corr_matrix(list(rets), "pearson")
        nodes = [f"S{i}" for i in range(len(rets))]
        if method == "threshold":
            pairs = edge_pairs(c, len(nodes), method, 4, thr)
            G = nx.Graph()
            G.add_nodes_from(nodes)
            for i, j in pairs:
                G.add_edge(nodes[i], nodes[j], weight=abs(c[i, j]), d=math.sqrt(2 * (1 - abs(c[i, j]))))
        else:
            G, pairs, _ = graph_of(c, nodes, method)
        out.append({"id": f"small-{method}-{thr}", "input": {"returns": rets.tolist(), "graph_method": method,
                                                             "corr_threshold": thr},
                    "expected": {"nodes": nodes, "edges": [[nodes[i], nodes[j]] for i, j in pairs],
                                 "stats": stats_of(G, c, len(nodes))}})
    return out


if __name__ == "__main__":
    data_dir = sys.argv[1] if len(sys.argv) > 1 else default_data_dir()
    if not os.path.isdir(data_dir):
        sys.exit(f"no NIFTY-50 data at {data_dir}: pass DATA_DIR or set GRAPH_STATS_NIFTY_DIR")
    series = load_dir(data_dir)
    doc = {"generator": "bench/networkx/generate_research_fixtures.py", "networkx": nx.__version__,
           "pandas": pd.__version__, "sklearn": sklearn.__version__,
           "graphs": graph_cases(series), "small": small_stats_cases(), "correlations": corr_cases(series)}
    with open(os.path.join(OUT_DIR, "research-golden.json"), "w") as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote research-golden.json: {len(doc['graphs'])} graph, {len(doc['small'])} small, "
          f"{len(doc['correlations'])} correlation cases")
