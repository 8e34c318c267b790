"""Literal references for corr_method=kendall and corr_method=distance (issue 26), for the golden
fixtures and the Python column of bench/pmfg-codependence.bench.ts:

- Kendall's tau-b: scipy.stats.kendalltau(x, y) (its default variant 'b') for every pair;
  nan (a constant series) is returned as None.
- distance correlation: Szekely, Rizzo, Bakirov (2007), "Measuring and testing dependence by
  correlation of distances", Ann. Statist. 35(6), the V-statistic of definition (2.8)-(2.10),
  transcribed in numpy: a_kl = |x_k - x_l|, A = a - row means - column means + grand mean (the
  same for B), dCov^2 = mean(A * B), dVar^2(x) = mean(A * A), dCor^2 = dCov^2 / sqrt(dVar^2(x)
  dVar^2(y)), and dCor = 0 when dVar^2(x) dVar^2(y) = 0. Per pair, nothing cached.

Run as a script it is the bench's Python side (see serve()).
"""
import json
import math
import os
import sys
import time

import numpy as np
import scipy
from scipy.stats import kendalltau


def kendall_matrix(rets):
    """rets: n series of L values. n x n tau-b as nested lists, diagonal 1, None where scipy gives nan."""
    n = len(rets)
    out = [[1.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            t = float(kendalltau(rets[i], rets[j]).correlation)
            out[i][j] = out[j][i] = None if math.isnan(t) else t
    return out


def double_centred(x):
    x = np.asarray(x, dtype=float)
    a = np.abs(x[:, None] - x[None, :])
    return a - a.mean(axis=0)[None, :] - a.mean(axis=1)[:, None] + a.mean()


def distance_correlation(x, y):
    A = double_centred(x)
    B = double_centred(y)
    dcov2 = (A * B).mean()
    dvar2 = (A * A).mean() * (B * B).mean()
    if dvar2 == 0:
        return 0.0
    # dCov^2 >= 0 in exact arithmetic; rounding can leave a tiny negative.
    return math.sqrt(max(dcov2, 0.0) / math.sqrt(dvar2))


def distance_matrix(rets):
    n = len(rets)
    out = [[1.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            out[i][j] = out[j][i] = distance_correlation(rets[i], rets[j])
    return out


def serve():
    """Prints a JSON header line, then answers each stdin line
    `<part> <path> <n> <L> <repeats>` with {"times_ms": [...]}: <part> is pmfg (path: n x n float64
    correlation matrix), kendall or distance (path: n x L float64 returns, row after row)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import networkx as nx
    from pmfg_reference import pmfg_edges

    print(json.dumps({"python": sys.version.split()[0], "networkx": nx.__version__, "scipy": scipy.__version__,
                      "numpy": np.__version__}), flush=True)
    for line in sys.stdin:
        part, path, n, L, repeats = line.split()
        n, L, repeats = int(n), int(L), int(repeats)
        if part == "pmfg":
            c = np.fromfile(path, dtype=np.float64).reshape(n, n).tolist()
            fn = lambda: pmfg_edges(c)  # noqa: E731
        else:
            rets = np.fromfile(path, dtype=np.float64).reshape(n, L)
            fn = (lambda: kendall_matrix(rets)) if part == "kendall" else (lambda: distance_matrix(rets))
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append((time.perf_counter() - t0) * 1000)
        print(json.dumps({"times_ms": times}), flush=True)


if __name__ == "__main__":
    serve()
