#!/usr/bin/python3
"""Reference hierarchies for issue 26 (Debian's python3-scipy): scipy.cluster.hierarchy.linkage,
leaves_list and fcluster(criterion="maxclust") on the correlation distance the engine uses
(src/engine/hierarchy.ts, docs/engine.md § Hierarchical clustering).

As a module: distance(), hierarchy(). As a script it is the Python side of
bench/hierarchy-hrp.bench.ts: a JSON header line, then one JSON line {"times_ms": [...]} per request:
  part <name> <method> <repeats>      on the 50-symbol window read at start-up:
                                      hierarchy  correlation distance -> linkage -> leaves_list -> fcluster(k=5)
                                      linkage    linkage alone, on the window's condensed distance
                                      core       the Cython routine linkage() calls (mst_single_linkage or
                                                 nn_chain, each with its sort and relabelling), no Python checks
                                      linkage3   linkage of 3 points: the fixed cost of a call
                                      hrp        the literal HRP (hrp_reference.py) from covariance and linkage
                                      pipeline   correlation + covariance -> both of the above
  rolling <method> <repeats>          the pipeline over every window of the file (one as-of each)
Start-up: --file PATH (float64 returns, windows x n x L, row-major) --windows W --n N --lookback L.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import scipy
from scipy.cluster import _hierarchy
from scipy.cluster.hierarchy import _LINKAGE_METHODS, fcluster, leaves_list, linkage
from scipy.spatial.distance import squareform

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hrp_reference import hrp_weights  # noqa: E402

METHODS = ["single", "average", "complete", "ward"]


def distance(c, signed):
    """sqrt(2(1 - rho)) (signed) or sqrt(2(1 - |rho|)) (unsigned), zero diagonal: the engine's expression."""
    r = c if signed else np.abs(c)
    d = np.sqrt(2.0 * np.maximum(0.0, 1.0 - r))
    np.fill_diagonal(d, 0.0)
    return d


def hierarchy(d, method, ks=()):
    """scipy's linkage on the condensed upper triangle of d, its leaves_list and maxclust labels per k."""
    Z = linkage(squareform(d, checks=False), method=method)
    return Z, leaves_list(Z), {k: fcluster(Z, k, criterion="maxclust") for k in ks}


def corrcoef(rets):
    """Pearson from per-pair sums of the centred rows (the timing side; fixtures use generate_fixtures.corr_matrix)."""
    return np.clip(np.corrcoef(rets), -1.0, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--file", required=True)
    ap.add_argument("--windows", type=int, required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--lookback", type=int, required=True)
    args = ap.parse_args()
    W, n, L = args.windows, args.n, args.lookback
    panels = np.fromfile(args.file, dtype=np.float64).reshape(W, n, L)
    last = panels[-1]
    c_last = corrcoef(last)
    cov_last = np.cov(last)
    y_last = squareform(distance(c_last, False), checks=False)
    y3 = np.array([3.0, 4.0, 1.0])  # the points 1, 4, 5 on a line

    def one(rets, method):
        c = corrcoef(rets)
        cov = np.cov(rets)
        Z, _, _ = hierarchy(distance(c, False), method, (5,))
        return hrp_weights(cov, Z).sort_index().to_numpy()

    def part(name, method):
        if name == "hierarchy":
            return lambda: hierarchy(distance(c_last, False), method, (5,))
        if name == "hrp":
            Z = linkage(squareform(distance(c_last, False), checks=False), method=method)
            return lambda: hrp_weights(cov_last, Z)
        if name == "pipeline":
            return lambda: one(last, method)
        if name == "linkage":
            return lambda: linkage(y_last, method=method)
        if name == "core":
            if method == "single":
                return lambda: _hierarchy.mst_single_linkage(y_last, n)
            return lambda: _hierarchy.nn_chain(y_last, n, _LINKAGE_METHODS[method])
        if name == "linkage3":
            return lambda: linkage(y3, method=method)
        raise SystemExit(f"unknown part {name!r}")

    import pandas as pd
    print(json.dumps({"python": sys.version.split()[0], "scipy": scipy.__version__, "numpy": np.__version__,
                      "pandas": pd.__version__}), flush=True)
    for line in sys.stdin:
        kind, *rest = line.split()
        if kind == "part":
            fn = part(rest[0], rest[1])
            repeats = int(rest[2])
        elif kind == "rolling":
            method = rest[0]
            repeats = int(rest[1])

            def fn():
                prev = None
                for w in range(W):
                    weights = one(panels[w], method)
                    if prev is not None:
                        0.5 * np.abs(weights - prev).sum()  # turnover
                    prev = weights
        else:
            raise SystemExit(f"unknown request {line!r}")
        fn()  # warm-up: lazy imports and caches, not the work
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"times_ms": times}), flush=True)


if __name__ == "__main__":
    main()
