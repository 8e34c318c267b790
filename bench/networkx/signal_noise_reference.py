"""Literal references for signal or noise, in numpy, networkx and scikit-learn:
the spectrum and Marchenko-Pastur edge, denoise=mp, detone=k, and bootstrap=B with SplitMix64 row
draws (docs/engine.md sections Random-matrix filtering and Bootstrap). Written from the formulas,
not from the TypeScript: numpy.linalg.eigh for every decomposition, V diag(lambda) V^T rebuilds.
"""
import math

import numpy as np

MASK = (1 << 64) - 1
VANISHED_VARIANCE = 1e-12


def splitmix64_units(state, count):
    """`count` draws of SplitMix64 from 64-bit `state`, each (x >> 11) * 2**-53."""
    out = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z = z ^ (z >> 31)
        out.append((z >> 11) * 2.0**-53)
    return out


def replicate_rows(seed, b, L):
    """Replicate b's rows: floor(u * L) for L draws from the state seed * 2**32 + b."""
    return [int(u * L) for u in splitmix64_units(seed * 2**32 + b, L)]


def lambda_plus(n, L):
    return (1 + math.sqrt(n / L)) ** 2


def eigh_desc(c):
    w, v = np.linalg.eigh(c)
    order = np.argsort(-w, kind="stable")
    return w[order], v[:, order]


def spectrum(c, L):
    n = len(c)
    w, _ = eigh_desc(c)
    lp = lambda_plus(n, L)
    top = math.ceil(n / 5)
    return {"eigenvalues": [float(x) for x in w], "lambda_plus": lp, "n_above": int(np.sum(w > lp)),
            "absorption_ratio": float(np.sum(w[:top]) / n)}


def unit_diagonal(c):
    d = np.diag(c).copy()
    sd = np.where(d > VANISHED_VARIANCE, np.sqrt(np.maximum(d, 0)), 0.0)
    n = len(c)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            out[i, j] = c[i, j] / (sd[i] * sd[j]) if sd[i] > 0 and sd[j] > 0 else 0.0
    out = np.clip(out, -1, 1)
    np.fill_diagonal(out, 1.0)
    return out


def denoise_mp(c, L):
    """Eigenvalues above lambda_plus kept, the rest replaced by their mean; rebuilt, unit diagonal, clipped."""
    n = len(c)
    w, v = eigh_desc(c)
    k = int(np.sum(w > lambda_plus(n, L)))
    w2 = w.copy()
    if k < n:
        w2[k:] = w[k:].mean()
    return unit_diagonal(v @ np.diag(w2) @ v.T)


def detone(c, k):
    """The k leading components lambda_i v_i v_i^T removed, unit diagonal, clipped."""
    w, v = eigh_desc(c)
    k = min(k, len(c))
    return unit_diagonal(c - v[:, :k] @ np.diag(w[:k]) @ v[:, :k].T)


def filters(c, L, denoise, k):
    out = c
    if denoise:
        out = denoise_mp(out, L)
    if k > 0:
        out = detone(out, k)
    return out


def percentile_pair(values):
    """numpy's default (linear) 5th and 95th percentiles, None without values."""
    vals = [v for v in values if v is not None and math.isfinite(v)]
    if not vals:
        return None, None
    p = np.percentile(np.array(vals), [5, 95])
    return float(p[0]), float(p[1])
