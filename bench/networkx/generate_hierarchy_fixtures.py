#!/usr/bin/python3
"""Golden fixtures for issue 26's hierarchies and HRP weights (Debian's python3-scipy,
python3-numpy, python3-pandas), from generated data only (fixed seed; nothing of NIFTY-50):

- hierarchy-golden.json: per panel, the correlation (or a hand-made distance) matrix, and per
  distance (signed, unsigned) and method (single, average, complete, ward) scipy's linkage matrix,
  leaves_list and fcluster(maxclust) labels for a few k (hierarchy_reference.py);
- hrp-golden.json: per panel, the returns, numpy's covariance (ddof 1), the inverse-variance
  weights, and per distance and method the leaf order and the literal HRP weights
  (hrp_reference.py), plus the paper's own distance sqrt((1 - rho)/2) with single linkage.

Panels: sector-factor returns at n = 2, 3, 5, 12, 50 (60 returns), panels with duplicated and
negated series (exact ties in distance: d = 0 within a copy group, equal distances from every
copy to the rest), and integer distance matrices (ties everywhere, also in the cluster updates).
fcluster's k stays within 1 … n-2: scipy before 1.15 (Debian has 1.10) picks a different cut for
k >= n-1 (gh-12651); docs/engine.md § Hierarchical clustering.

Usage: /usr/bin/python3 bench/networkx/generate_hierarchy_fixtures.py
"""
import json
import os
import sys

import numpy as np
import pandas as pd
import scipy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate_fixtures import OUT_DIR, corr_matrix  # noqa: E402
from hierarchy_reference import METHODS, distance, hierarchy  # noqa: E402
from hrp_reference import getQuasiDiag, hrp_weights, ivp_weights  # noqa: E402

from scipy.cluster.hierarchy import leaves_list, linkage  # noqa: E402
from scipy.spatial.distance import squareform  # noqa: E402

L = 60


def sector_returns(rng, n, sectors=4):
    """r_i = b_i m + c_i s_sector(i) + noise_i, daily-return sized, betas of both signs."""
    m = rng.normal(0, 0.01, L)
    s = rng.normal(0, 0.01, (sectors, L))
    out = []
    for i in range(n):
        b = rng.uniform(-0.5, 1.5)
        c = rng.uniform(0.2, 1.2)
        out.append(b * m + c * s[i % sectors] + rng.normal(0, rng.uniform(0.005, 0.02), L))
    return np.array(out)


def panels():
    rng = np.random.default_rng(26)
    out = [(f"factor-n{n}", sector_returns(rng, n)) for n in [2, 3, 5, 12, 50]]
    # Copies: 3 and 7 repeat 0, 9 repeats 5, 10 is -2 (|rho| = 1: a tie only for the unsigned distance).
    r = sector_returns(rng, 12)
    r[3] = r[0]
    r[7] = r[0]
    r[9] = r[5]
    r[10] = -r[2]
    out.append(("duplicates-n12", r))
    # Five distinct series, each four times, interleaved: every distance is one of few values.
    base = sector_returns(rng, 5)
    out.append(("copies-5x4", np.array([base[i % 5] for i in range(20)])))
    return out


def integer_distances():
    rng = np.random.default_rng(2026)
    out = []
    for n, top in [(6, 2), (9, 3), (30, 3)]:
        d = rng.integers(1, top + 1, (n, n)).astype(float)
        d = np.triu(d, 1)
        out.append((f"integer-n{n}-1to{top}", d + d.T))
    return out


def ks_for(n):
    return [k for k in [1, 2, 3, 5, 8, n - 2] if 1 <= k <= n - 2]


def hierarchy_cases(d, n):
    cases = []
    for method in METHODS:
        Z, leaves, flat = hierarchy(d, method, sorted(set(ks_for(n))))
        assert getQuasiDiag(Z) == leaves.tolist(), "quasi-diagonal order must be leaves_list"
        cases.append({"method": method, "Z": Z.tolist(), "leaves": leaves.tolist(),
                      "fcluster": {str(k): v.tolist() for k, v in flat.items()}})
    return cases


def hierarchy_doc():
    out = []
    for pid, rets in panels():
        c = corr_matrix(list(rets), "pearson")
        n = len(c)
        out.append({"id": pid, "n": n, "corr": c.tolist(),
                    "unsigned": hierarchy_cases(distance(c, False), n),
                    "signed": hierarchy_cases(distance(c, True), n)})
    for pid, d in integer_distances():
        out.append({"id": pid, "n": len(d), "dist": d.tolist(), "cases": hierarchy_cases(d, len(d))})
    return out


def hrp_doc():
    out = []
    for pid, rets in panels():
        c = corr_matrix(list(rets), "pearson")
        cov = np.cov(rets)
        n = len(c)
        entry = {"id": pid, "n": n, "returns": rets.tolist(), "corr": c.tolist(), "cov": cov.tolist(),
                 "ivp": ivp_weights(cov).tolist(), "cases": []}
        for signed in [False, True]:
            d = distance(c, signed)
            for method in METHODS:
                Z = linkage(squareform(d, checks=False), method=method)
                w = hrp_weights(cov, Z)
                assert abs(w.sum() - 1) < 1e-12 and (w >= 0).all()
                entry["cases"].append({"signed": signed, "method": method, "order": leaves_list(Z).tolist(),
                                       "weights": w.sort_index().tolist()})
        # The paper's distance sqrt((1 - rho)/2) = signed d / 2, single linkage: the same tree.
        Z = linkage(squareform(np.sqrt(np.maximum(0.0, (1 - c) / 2.0)), checks=False), method="single")
        entry["paper"] = {"order": leaves_list(Z).tolist(), "heights": Z[:, 2].tolist(),
                          "weights": hrp_weights(cov, Z).sort_index().tolist()}
        out.append(entry)
    return out


def write(name, doc):
    with open(os.path.join(OUT_DIR, name), "w") as f:
        json.dump(doc, f, allow_nan=False, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    versions = {"generator": "bench/networkx/generate_hierarchy_fixtures.py", "scipy": scipy.__version__,
                "numpy": np.__version__, "pandas": pd.__version__}
    h = hierarchy_doc()
    write("hierarchy-golden.json", {**versions, "panels": h})
    p = hrp_doc()
    write("hrp-golden.json", {**versions, "panels": p})
    print(f"wrote hierarchy-golden.json ({len(h)} panels) and hrp-golden.json ({len(p)} panels)")
