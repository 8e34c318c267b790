#!/usr/bin/python3
"""Python side of bench/signal-noise.bench.ts: bootstrap=B on one NIFTY-50 window (lookback 60, mst,
the five networkx metrics, Louvain communities per replicate), with numpy's corrcoef and the
SplitMix64 rows of signal_noise_reference.py. Prints a JSON header line, then answers each stdin line
"bootstrap B RUNS" with {"times_ms": [...]}.
"""
import json
import sys
import time

import networkx as nx
import numpy as np
from sklearn.metrics import adjusted_rand_score

from generate_fixtures import default_data_dir, edge_pairs, load_dir, metrics_of
from generate_research_fixtures import window_returns
from signal_noise_reference import replicate_rows


def graph_of(c, n):
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i, j in edge_pairs(c, n, "mst", 4, 0.5):
        w = abs(float(c[i, j]))
        G.add_edge(i, j, weight=w, d=(2 * (1 - w)) ** 0.5)
    return G


def labels(G, n):
    out = [0] * n
    for k, comm in enumerate(nx.community.louvain_communities(G, weight="weight", seed=42)):
        for v in comm:
            out[v] = k
    return out


def bootstrap(rets, B):
    n, L = rets.shape
    G0 = graph_of(np.corrcoef(rets), n)
    base = labels(G0, n)
    edges = set(G0.edges())
    held = {e: 0 for e in edges}
    vals = []
    ari = 0.0
    for b in range(B):
        G = graph_of(np.corrcoef(rets[:, replicate_rows(0, b, L)]), n)
        for e in G.edges():
            if e in held:
                held[e] += 1
        vals.append(metrics_of(G, list(range(n))))
        ari += adjusted_rand_score(base, labels(G, n))
    for m in vals[0]:
        np.percentile(np.array([[v[m][i] for i in range(n)] for v in vals], dtype=float), [5, 95], axis=0)
    return held, ari / B


def main():
    asof = sys.argv[sys.argv.index("--asof") + 1]
    _, _, rets = window_returns(load_dir(default_data_dir()), asof, 60)
    print(json.dumps({"numpy": np.__version__, "networkx": nx.__version__}), flush=True)
    for line in sys.stdin:
        _, B, runs = line.split()
        times = []
        for _ in range(int(runs)):
            t0 = time.perf_counter()
            bootstrap(rets, int(B))
            times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"times_ms": times}), flush=True)


if __name__ == "__main__":
    main()
