#!/usr/bin/python3
"""networkx side of bench/engine.bench.ts: the same pipeline as the engine's snapshot
(window -> log returns -> correlation -> graph -> five metrics -> Louvain + modularity),
timed per graph method on the NIFTY-50 closes. Prints one JSON object to stdout.

Usage: /usr/bin/python3 bench/networkx/bench_networkx.py [--asof 2024-06-28] [--lookback 60] [--repeats 15] [--data DIR]
       /usr/bin/python3 bench/networkx/bench_networkx.py --serve   (used by bench/engine.bench.ts)
       /usr/bin/python3 bench/networkx/bench_networkx.py --louvain-holdout | --louvain-validation
The last form prints networkx's Louvain (seed 42) modularity for 480 NIFTY as-ofs that are not
golden fixtures (60 dates in 2021-2025 x pearson/spearman x 4 graph methods), so
bench/engine-louvain-holdout.ts can check the engine's Louvain rule beyond the fixtures; the
validation set is 60 other dates with other lookbacks, knn_k and thresholds (see louvain_holdout).
Reuses generate_fixtures.py's functions, so the benchmark times exactly what the golden
fixtures check (same tolerances: 1e-12, as the engine uses). CSV loading is not timed,
as the engine side starts from aligned closes too.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import networkx as nx
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate_fixtures import corr_matrix, default_data_dir, edge_pairs, load_dir, metrics_of, modularity_of  # noqa: E402


def window_returns_at(symbols, closes, t, lookback):
    """Participating symbols and their log returns over the lookback bars up to t (the drop rules)."""
    nodes, rets = [], []
    for s in symbols:
        w = closes[s][t - lookback:t + 1]
        if not np.all(w > 0):
            continue
        r = np.log(w[1:] / w[:-1])
        if np.all(r == r[0]):
            continue
        nodes.append(s)
        rets.append(r)
    return nodes, rets


def build_graph(symbols, closes, t, lookback, graph_method, corr_method="pearson", knn_k=4, threshold=0.5):
    """Window -> log returns -> drop rules -> correlation -> graph, as README.md § How the numbers are computed, steps 1-5."""
    nodes, rets = window_returns_at(symbols, closes, t, lookback)
    c = corr_matrix(rets, corr_method)
    G = nx.Graph()
    G.add_nodes_from(nodes)
    for i, j in edge_pairs(c, len(nodes), graph_method, knn_k, threshold):
        rho = float(c[i, j])
        G.add_edge(nodes[i], nodes[j], weight=abs(rho), d=math.sqrt(2 * (1 - abs(rho))))
    return nodes, G


def snapshot(symbols, closes, t, lookback, graph_method, corr_method="pearson", knn_k=4, threshold=0.5):
    nodes, G = build_graph(symbols, closes, t, lookback, graph_method, corr_method, knn_k, threshold)
    metrics = metrics_of(G, nodes)
    # Louvain once, and the modularity of that partition (modularity_of would run Louvain again).
    communities = nx.community.louvain_communities(G, weight="weight", resolution=1, seed=42)
    modularity = nx.community.modularity(G, communities, weight="weight", resolution=1) if G.number_of_edges() else None
    return metrics, communities, modularity


def louvain_holdout(data_dir, case_set="holdout"):
    """networkx's Louvain modularity on NIFTY as-ofs that are not golden fixtures.

    holdout: 60 dates x pearson/spearman x 4 methods, lookback 60, knn_k 4, threshold 0.5.
    validation: 60 other dates (the 10th of each month) with other parameters cycled per date:
    lookback 20/120/250/40, knn_k 2/3/6/8, corr_threshold 0.3/0.4/0.6/0.7. It was not looked at
    when the engine's visiting orders were chosen, so it checks the rule on unseen graphs.
    """
    series = load_dir(data_dir)
    symbols = sorted(series)
    labels = sorted(set().union(*(series[s].index for s in symbols)))
    closes = {s: series[s].reindex(labels).to_numpy(dtype=float) for s in symbols}
    dates = [l[:10] for l in labels]
    out = []
    if case_set == "validation":
        asofs = [f"{y}-{m:02d}-10" for y in range(2021, 2026) for m in range(1, 13)]
    else:
        asofs = [f"{y}-{m:02d}-{d:02d}" for y in range(2021, 2026)
                 for d, months in ((15, (2, 5, 8, 11)), (1, (3, 6, 9, 12)), (20, (1, 4, 7, 10))) for m in months]
    for q, asof in enumerate(asofs):
        t = max(k for k, d in enumerate(dates) if d <= asof)
        lookback, knn_k, threshold = (60, 4, 0.5)
        if case_set == "validation":
            lookback = (20, 120, 250, 40)[q % 4]
            knn_k = (2, 3, 6, 8)[(q // 4) % 4]
            threshold = (0.3, 0.4, 0.6, 0.7)[(q // 16) % 4]
            if t < lookback:
                continue
        for corr_method in ["pearson", "spearman"]:
            for method in ["mst", "knn", "threshold", "complete"]:
                _, G = build_graph(symbols, closes, t, lookback, method, corr_method, knn_k, threshold)
                inp = {"symbols": None, "asof": asof, "lookback": lookback, "graph_method": method,
                       "corr_method": corr_method, "knn_k": knn_k, "corr_threshold": threshold}
                out.append({"input": inp, "edges": G.number_of_edges(), "modularity_networkx": modularity_of(G)})
    return out


def serve(symbols, closes, labels, t, lookback, header):
    """Timing on request, so the engine bench can alternate both sides (machine noise hits both).

    Prints the header as one JSON line, then answers each stdin line "<method> <repeats> [asof]"
    with {"method": ..., "times_ms": [...]} (the first request per method runs one untimed
    warm-up). Without an as-of date the --asof of the command line is used.
    """
    print(json.dumps(header), flush=True)
    warm = set()
    for line in sys.stdin:
        method, repeats, *rest = line.split()
        at = last_bar_on_or_before(labels, rest[0]) if rest else t
        if method not in warm:
            snapshot(symbols, closes, at, lookback, method)
            warm.add(method)
        times = []
        for _ in range(int(repeats)):
            t0 = time.perf_counter()
            snapshot(symbols, closes, at, lookback, method)
            times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"method": method, "times_ms": times}), flush=True)


def last_bar_on_or_before(labels, date):
    return max(k for k, l in enumerate(labels) if l[:10] <= date)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--asof", default="2024-06-28")
    ap.add_argument("--lookback", type=int, default=60)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--data", default=default_data_dir(), help="the NIFTY-50 daily CSVs (default: $GRAPH_STATS_NIFTY_DIR, else shared/data beside the repo)")
    ap.add_argument("--louvain-holdout", action="store_true")
    ap.add_argument("--louvain-validation", action="store_true")
    ap.add_argument("--serve", action="store_true")
    args = ap.parse_args()
    if args.louvain_holdout or args.louvain_validation:
        print(json.dumps(louvain_holdout(args.data, "validation" if args.louvain_validation else "holdout")))
        return
    series = load_dir(args.data)
    symbols = sorted(series)
    labels = sorted(set().union(*(series[s].index for s in symbols)))
    closes = {s: series[s].reindex(labels).to_numpy(dtype=float) for s in symbols}
    t = last_bar_on_or_before(labels, args.asof)
    out = {"networkx": nx.__version__, "python": sys.version.split()[0], "asof": labels[t],
           "lookback": args.lookback, "repeats": args.repeats, "methods": {}}
    if args.serve:
        serve(symbols, closes, labels, t, args.lookback, out)
        return
    for method in ["mst", "knn", "threshold", "complete"]:
        snapshot(symbols, closes, t, args.lookback, method)  # warm-up
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            snapshot(symbols, closes, t, args.lookback, method)
            times.append((time.perf_counter() - t0) * 1000)
        out["methods"][method] = {"median_ms": statistics.median(times), "min_ms": min(times)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
