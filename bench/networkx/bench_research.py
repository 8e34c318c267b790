#!/usr/bin/python3
"""Python side of bench/research.bench.ts (issue 15): the research pipeline and its pieces in the
reference libraries the golden fixtures come from (networkx, pandas ewm, sklearn LedoitWolf, the
literal TMFG of tmfg_reference.py), timed on request so the two sides can take turns.

Usage: /usr/bin/python3 bench/networkx/bench_research.py [--asof 2024-06-28] [--data DIR]
Prints a JSON header line, then answers each stdin line with {"times_ms": [...]}:
  rolling <case> <periods> <repeats>   the rolling pipeline at the as-of and periods-1 bars before
                                       it: per as-of window -> (market removal) -> correlation ->
                                       graph -> five metrics -> Louvain + modularity -> graph
                                       statistics; <case>: mst knn threshold complete tmfg ewma
                                       ledoit_wolf market_remove (the last three on mst)
  part <name> <repeats>                one piece on the 50-symbol window at the as-of (lookback 60):
                                       tmfg, ewma, ledoit_wolf, market_remove, stats_complete, stats_tmfg
  tmfg_file <path> <n> <repeats>       the literal TMFG on an n x n float64 |rho| matrix from a file
"""
import argparse
import json
import math
import os
import sys
import time

import networkx as nx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate_fixtures import corr_matrix, default_data_dir, edge_pairs, load_dir, metrics_of  # noqa: E402
from bench_networkx import window_returns_at  # noqa: E402
from generate_research_fixtures import ewma_corr, graph_of, lw_corr, remove_market, stats_of  # noqa: E402
from tmfg_reference import tmfg_edges  # noqa: E402

LOOKBACK = 60
HALFLIFE = 20
CASES = {  # case -> (graph method, correlation option)
    "mst": ("mst", None), "knn": ("knn", None), "threshold": ("threshold", None),
    "complete": ("complete", None), "tmfg": ("tmfg", None),
    "ewma": ("mst", "ewma"), "ledoit_wolf": ("mst", "ledoit_wolf"), "market_remove": ("mst", "market_remove"),
}


def window(symbols, closes, t):
    nodes, rets = window_returns_at(symbols, closes, t, LOOKBACK)
    return nodes, np.array(rets)


def correlation(rets, option):
    if option == "market_remove":
        return corr_matrix(list(remove_market(rets)), "pearson")
    if option == "ewma":
        return ewma_corr(rets, HALFLIFE)
    if option == "ledoit_wolf":
        return lw_corr(rets)
    return corr_matrix(list(rets), "pearson")


def one_asof(symbols, closes, t, method, option):
    nodes, rets = window(symbols, closes, t)
    c = correlation(rets, option)
    G, _, _ = graph_of(c, nodes, method)
    metrics = metrics_of(G, nodes)
    communities = nx.community.louvain_communities(G, weight="weight", resolution=1, seed=42)
    modularity = nx.community.modularity(G, communities, weight="weight", resolution=1)
    return metrics, communities, modularity, G.number_of_edges(), stats_of(G, c, len(nodes))


def parts(symbols, closes, t):
    """The pieces, each a no-argument function over the window at t."""
    nodes, rets = window(symbols, closes, t)
    c = corr_matrix(list(rets), "pearson")
    n = len(nodes)
    w = np.abs(c).tolist()
    g_complete, _, _ = graph_of(c, nodes, "complete")
    g_tmfg, _, _ = graph_of(c, nodes, "tmfg")
    return {
        "tmfg": lambda: tmfg_edges(w),
        "ewma": lambda: ewma_corr(rets, HALFLIFE),
        "ledoit_wolf": lambda: lw_corr(rets),
        "market_remove": lambda: remove_market(rets),
        "stats_complete": lambda: stats_of(g_complete, c, n),
        "stats_tmfg": lambda: stats_of(g_tmfg, c, n),
    }


def timed(fn, repeats, warm=True):
    if warm:
        fn()  # lazy imports and caches, not the work
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asof", default="2024-06-28")
    ap.add_argument("--data", default=default_data_dir())
    args = ap.parse_args()
    import pandas as pd
    import sklearn
    series = load_dir(args.data)
    symbols = sorted(series)
    labels = sorted(set().union(*(series[s].index for s in symbols)))
    closes = {s: series[s].reindex(labels).to_numpy(dtype=float) for s in symbols}
    t = max(k for k, l in enumerate(labels) if l[:10] <= args.asof)
    pieces = parts(symbols, closes, t)
    print(json.dumps({"python": sys.version.split()[0], "networkx": nx.__version__, "pandas": pd.__version__,
                      "sklearn": sklearn.__version__, "numpy": np.__version__, "asof": labels[t][:10]}), flush=True)
    for line in sys.stdin:
        kind, *rest = line.split()
        if kind == "rolling":
            method, option = CASES[rest[0]]
            periods, repeats = int(rest[1]), int(rest[2])
            # No warm-up run here (a rolling call is seconds); the first case's first call is warm enough
            # after the parts' warm-ups, and each as-of repeats the same few functions.
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                for at in range(t - periods + 1, t + 1):
                    one_asof(symbols, closes, at, method, option)
                times.append((time.perf_counter() - t0) * 1000)
        elif kind == "part":
            times = timed(pieces[rest[0]], int(rest[1]))
        elif kind == "tmfg_file":
            n = int(rest[1])
            w = np.fromfile(rest[0], dtype=np.float64).reshape(n, n).tolist()
            # Pure Python with nothing to warm; at n = 500 one run takes seconds.
            times = timed(lambda: tmfg_edges(w), int(rest[2]), warm=False)
        else:
            raise SystemExit(f"unknown request {line!r}")
        print(json.dumps({"times_ms": times}), flush=True)


if __name__ == "__main__":
    main()
