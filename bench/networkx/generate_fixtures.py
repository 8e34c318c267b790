#!/usr/bin/python3
"""Golden fixtures for the graph-stats engine, computed with networkx 2.8.8 (README.md § How the numbers are computed).

Usage: /usr/bin/python3 bench/networkx/generate_fixtures.py [DATA_DIR]
DATA_DIR (the NIFTY-50 daily CSVs) defaults to $GRAPH_STATS_NIFTY_DIR, else to
shared/data/nifty50-daily beside the repository (the data is not part of the repository).
Writes test/fixtures/engine/nifty-golden.json and test/fixtures/engine/small-golden.json
in the format of the engine's API notes. The tolerances below must stay in step with
src/engine/metrics/eigenvector.ts and pagerank.ts.
"""
import json
import math
import os
import sys

import networkx as nx
import numpy as np
import pandas as pd
from scipy.stats import rankdata

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT_DIR = os.path.join(REPO, "test", "fixtures", "engine")
TOL = 1e-12
MAX_ITER = 100000
METRICS = ["degree_strength", "eigenvector_centrality", "betweenness_centrality",
           "closeness_centrality", "pagerank"]


def default_data_dir():
    """GRAPH_STATS_NIFTY_DIR if set, else shared/data/nifty50-daily beside the repository (as the tests)."""
    return os.environ.get("GRAPH_STATS_NIFTY_DIR") or os.path.join(HERE, "..", "..", "..", "shared", "data", "nifty50-daily")


def load_dir(data_dir):
    """symbol -> pandas Series of closes indexed by the timestamp string (local time with offset)."""
    out = {}
    for name in sorted(os.listdir(data_dir)):
        if not name.endswith(".csv"):
            continue
        df = pd.read_csv(os.path.join(data_dir, name), dtype={"timestamp": str})
        ts = df["timestamp"].str.replace(" ", "T", regex=False)
        out[name[:-4]] = pd.Series(df["close"].to_numpy(dtype=float), index=ts)
    return out


def corr_matrix(returns, method):
    x = np.array([rankdata(r, method="average") if method == "spearman" else r for r in returns], dtype=float)
    x = x - x.mean(axis=1, keepdims=True)
    n = len(x)
    # rho = sxy / sqrt(sxx * syy) from per-pair sums: identical series give exactly 1 and
    # rank-negated series exactly -1, so the tie cases are exact in every implementation.
    # math.fsum, not np.dot: numpy's SIMD sums depend on memory alignment, which made the
    # last bits (and so the output bytes) vary from run to run.
    s = np.array([[math.fsum(x[i] * x[j]) for j in range(n)] for i in range(n)])
    c = np.ones((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            c[i, j] = c[j, i] = min(1.0, max(-1.0, s[i, j] / math.sqrt(s[i, i] * s[j, j])))
    return c


def edge_pairs(c, n, method, knn_k, threshold):
    if method == "complete":
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    if method == "threshold":
        return [(i, j) for i in range(n) for j in range(i + 1, n) if abs(c[i, j]) >= threshold]
    if method == "knn":
        keep = set()
        for i in range(n):
            others = sorted((j for j in range(n) if j != i), key=lambda j: (-abs(c[i, j]), j))
            for j in others[:knn_k]:
                keep.add((min(i, j), max(i, j)))
        return sorted(keep)
    if method == "mst":
        full = nx.Graph()
        full.add_nodes_from(range(n))
        for i in range(n):
            for j in range(i + 1, n):
                full.add_edge(i, j, d=math.sqrt(2 * (1 - abs(c[i, j]))))
        t = nx.minimum_spanning_tree(full, weight="d")
        return sorted((min(u, v), max(u, v)) for u, v in t.edges())
    raise ValueError(method)


def metrics_of(G, nodes):
    has_edges = G.number_of_edges() > 0
    deg = dict(G.degree(weight="weight"))
    top = max(deg.values()) if deg else 0
    out = {"degree_strength": {v: (deg[v] / top if top > 0 else 0.0) for v in nodes}}
    try:
        ev = nx.eigenvector_centrality(G, weight="weight", tol=TOL, max_iter=MAX_ITER) if has_edges else None
    except nx.PowerIterationFailedConvergence:
        ev = None
    out["eigenvector_centrality"] = {v: (ev[v] if ev else None) for v in nodes}
    out["betweenness_centrality"] = nx.betweenness_centrality(G, weight="d", normalized=True)
    out["closeness_centrality"] = nx.closeness_centrality(G, distance="d")
    try:
        pr = nx.pagerank(G, alpha=0.85, weight="weight", tol=TOL, max_iter=MAX_ITER)
    except nx.PowerIterationFailedConvergence:
        pr = None
    out["pagerank"] = {v: (pr[v] if pr else None) for v in nodes}
    return {m: {v: out[m][v] for v in nodes} for m in METRICS}


def modularity_of(G):
    try:
        comms = nx.community.louvain_communities(G, weight="weight", resolution=1, seed=42)
        return nx.community.modularity(G, comms, weight="weight", resolution=1)
    except ZeroDivisionError:
        return None


def compute_case(symbols, labels, closes, inp):
    """closes: symbol -> np.array aligned to labels (NaN where missing)."""
    dates = [l[:10] for l in labels]
    t = max(k for k, d in enumerate(dates) if d <= inp["asof"])
    lb = inp["lookback"]
    assert t - lb >= 0, f"not enough history for {inp}"
    nodes, dropped_bars, dropped_var, rets = [], [], [], []
    for s in symbols:
        w = closes[s][t - lb:t + 1]
        if not np.all(w > 0):
            dropped_bars.append(s)
            continue
        r = np.log(w[1:] / w[:-1])
        if np.all(r == r[0]):
            dropped_var.append(s)
            continue
        nodes.append(s)
        rets.append(r)
    n = len(nodes)
    c = corr_matrix(rets, inp["corr_method"])
    G = nx.Graph()
    G.add_nodes_from(nodes)
    edges = []
    for i, j in edge_pairs(c, n, inp["graph_method"], inp["knn_k"], inp["corr_threshold"]):
        rho = float(c[i, j])
        G.add_edge(nodes[i], nodes[j], weight=abs(rho), d=math.sqrt(2 * (1 - abs(rho))))
        edges.append([nodes[i], nodes[j], abs(rho), rho])
    return {"asof_date": dates[t], "nodes": nodes, "dropped_insufficient_bars": dropped_bars,
            "dropped_zero_variance": dropped_var, "edges": edges,
            "metrics": metrics_of(G, nodes), "modularity_networkx": modularity_of(G)}


def case_input(asof, graph_method, corr_method, lookback=60, knn_k=4, threshold=0.5, symbols=None):
    return {"symbols": symbols, "asof": asof, "lookback": lookback, "graph_method": graph_method,
            "corr_method": corr_method, "knn_k": knn_k, "corr_threshold": threshold}


def case_id(inp):
    parts = [inp["asof"], inp["graph_method"], inp["corr_method"]]
    if inp["lookback"] != 60:
        parts.append(f"lb{inp['lookback']}")
    if inp["graph_method"] == "knn" and inp["knn_k"] != 4:
        parts.append(f"k{inp['knn_k']}")
    if inp["graph_method"] == "threshold" and inp["corr_threshold"] != 0.5:
        parts.append(f"t{inp['corr_threshold']}")
    if inp["symbols"] is not None:
        parts.append(f"{len(inp['symbols'])}sym")
    return "-".join(parts)


def nifty_inputs():
    inputs = []
    # 2021-03-31: ETERNAL and JIOFIN not listed; 2023-08-31: JIOFIN listed 8 days earlier.
    for asof in ["2021-03-31", "2022-06-30", "2023-08-31", "2024-06-28", "2025-09-30"]:
        for gm in ["mst", "knn", "threshold", "complete"]:
            for cm in ["pearson", "spearman"]:
                inputs.append(case_input(asof, gm, cm))
    inputs += [
        case_input("2023-08-31", "threshold", "pearson", threshold=0.65),
        case_input("2021-03-31", "threshold", "spearman", threshold=0.7),
        case_input("2024-06-28", "knn", "pearson", knn_k=1),
        case_input("2022-06-30", "knn", "spearman", knn_k=1),
        case_input("2025-09-30", "mst", "pearson", lookback=20),
        case_input("2021-03-31", "complete", "spearman", lookback=20),
        case_input("2022-06-30", "mst", "pearson", lookback=250),
        case_input("2025-09-30", "knn", "spearman", lookback=250),
        case_input("2024-06-28", "mst", "pearson",
                   symbols=["RELIANCE", "TCS", "INFY", "HDFCBANK", "ICICIBANK", "JIOFIN", "ETERNAL"]),
    ]
    return inputs


def nifty_cases(data_dir):
    series = load_dir(data_dir)
    cases = []
    for inp in nifty_inputs():
        symbols = inp["symbols"] or sorted(series)
        labels = sorted(set().union(*(series[s].index for s in symbols)))
        closes = {s: series[s].reindex(labels).to_numpy(dtype=float) for s in symbols}
        cases.append({"id": case_id(inp), "input": inp, "expected": compute_case(symbols, labels, closes, inp)})
    return cases


SMALL_LABELS = [d.strftime("%Y-%m-%d") + "T00:00:00+05:30" for d in pd.bdate_range("2024-01-01", periods=40)]


def walk(rng, base=None, beta=0.0, vol=0.02):
    """Prices of a random walk whose log returns load beta on `base`'s returns."""
    eps = rng.normal(0, vol, len(SMALL_LABELS) - 1)
    if base is not None:
        eps = eps + beta * np.diff(np.log(base))
    return np.round(100 * np.exp(np.concatenate([[0], np.cumsum(eps)])), 6)


def small_inputs():
    rng = np.random.default_rng(20240101)
    a = walk(rng)
    b, c, e = walk(rng, a, 1.0), walk(rng, a, 0.5), walk(rng)
    x, y, z = walk(rng, a, 0.8), walk(rng), walk(rng, a, -0.7)
    late = walk(rng, a, 0.6)
    late[:25] = np.nan
    gap = walk(rng, a, 0.9)
    gap[35] = np.nan
    last = SMALL_LABELS[-1][:10]
    two, three = {"A": a, "B": b}, {"A": a, "B": b, "C": c}
    ties = {"A": a, "X": x, "A2": a * 2, "Y": y, "Z": z}  # A2 has A's returns exactly
    ties_rank = {"A": a, "X": x, "AINV": np.round(1 / a, 12), "Y": y}  # AINV: A's ranks reversed
    noise = {"N1": e, "N2": y, "N3": walk(rng), "N4": walk(rng)}
    const = {"A": a, "K": np.full(len(a), 50.0), "B": b, "C": c}
    iso = {"A": a, "B": b, "E": e, "C": c, "Y": y}
    listing = {"A": a, "B": b, "LATE": late, "C": c, "GAP": gap}
    return [
        ("two-nodes-mst-pearson", two, case_input(last, "mst", "pearson", lookback=20)),
        ("two-nodes-complete-spearman", two, case_input(last, "complete", "spearman", lookback=39)),
        ("three-nodes-complete-pearson", three, case_input(last, "complete", "pearson", lookback=30)),
        ("three-nodes-knn1-pearson", three, case_input(last, "knn", "pearson", knn_k=1, lookback=30)),
        ("three-nodes-mst-spearman", three, case_input(last, "mst", "spearman", lookback=30)),
        ("ties-identical-knn1-pearson", ties, case_input(last, "knn", "pearson", knn_k=1, lookback=30)),
        ("ties-identical-mst-pearson", ties, case_input(last, "mst", "pearson", lookback=30)),
        ("ties-identical-complete-pearson", ties, case_input(last, "complete", "pearson", lookback=30)),
        ("ties-identical-threshold-spearman", ties, case_input(last, "threshold", "spearman", threshold=0.3, lookback=30)),
        ("ties-negated-knn2-spearman", ties_rank, case_input(last, "knn", "spearman", knn_k=2, lookback=30)),
        ("ties-negated-mst-spearman", ties_rank, case_input(last, "mst", "spearman", lookback=30)),
        ("ties-negated-complete-spearman", ties_rank, case_input(last, "complete", "spearman", lookback=30)),
        ("constant-price-complete-pearson", const, case_input(last, "complete", "pearson", lookback=30)),
        ("no-edges-threshold-pearson", noise, case_input(last, "threshold", "pearson", threshold=1.0, lookback=30)),
        ("isolated-threshold-pearson", iso, case_input(last, "threshold", "pearson", threshold=0.5, lookback=30)),
        ("late-listed-dropped-mst-pearson", listing, case_input(SMALL_LABELS[30][:10], "mst", "pearson", lookback=20)),
        ("late-listed-at-window-start-knn-pearson", listing,
         case_input(SMALL_LABELS[34][:10], "knn", "pearson", knn_k=2, lookback=9)),
        ("gap-dropped-complete-pearson", listing, case_input(last, "complete", "pearson", lookback=10)),
    ]


def small_cases():
    cases = []
    for cid, data, inp in small_inputs():
        symbols = list(data)
        closes = {s: np.asarray(v, dtype=float) for s, v in data.items()}
        inp = {**inp, "symbols": symbols, "labels": SMALL_LABELS,
               "closes": {s: [None if math.isnan(v) else float(v) for v in closes[s]] for s in symbols}}
        cases.append({"id": cid, "input": inp, "expected": compute_case(symbols, SMALL_LABELS, closes, inp)})
    return cases


if __name__ == "__main__":
    # networkx's Louvain and modularity iterate over sets of symbol strings, whose order follows
    # Python's per-process string hashing; pin it so the fixtures are byte-for-byte reproducible.
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    data_dir = sys.argv[1] if len(sys.argv) > 1 else default_data_dir()
    if not os.path.isdir(data_dir):
        sys.exit(f"no NIFTY-50 data at {data_dir}: pass DATA_DIR or set GRAPH_STATS_NIFTY_DIR")
    os.makedirs(OUT_DIR, exist_ok=True)
    header = {"generator": "bench/networkx/generate_fixtures.py", "networkx": nx.__version__}
    for name, cases in [("small-golden.json", small_cases()), ("nifty-golden.json", nifty_cases(data_dir))]:
        with open(os.path.join(OUT_DIR, name), "w") as f:
            json.dump({**header, "cases": cases}, f, allow_nan=False, separators=(",", ":"))
            f.write("\n")
        print(f"wrote {name}: {len(cases)} cases")
