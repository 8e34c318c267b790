#!/usr/bin/python3
"""Hierarchical risk parity as published: López de Prado (2016), "Building Diversified Portfolios
that Outperform Out of Sample", Journal of Portfolio Management 42(4), code listing of section 4
(also Advances in Financial Machine Learning, snippets 16.1-16.4). getIVP, getClusterVar,
getQuasiDiag and getRecBipart are transcribed literally in numpy/pandas; the only edits are the
Python 3 ones (range for xrange, // for the Python 2 integer /, pd.concat for the removed
Series.append) and a float initial weight (pandas would otherwise upcast an int Series in place).

What differs from the paper's main(): the linkage comes from the caller (hierarchy_reference.py,
scipy on the condensed correlation distance; the paper passes the square matrix, which scipy
reads as observation vectors). Reference for src/engine/hrp.ts (docs/engine.md § Portfolio weights).
"""
import numpy as np
import pandas as pd


def getIVP(cov, **kargs):
    # Compute the inverse-variance portfolio
    ivp = 1. / np.diag(cov)
    ivp /= ivp.sum()
    return ivp


def getClusterVar(cov, cItems):
    # Compute variance per cluster
    cov_ = cov.loc[cItems, cItems]  # matrix slice
    w_ = getIVP(cov_).reshape(-1, 1)
    cVar = np.dot(np.dot(w_.T, cov_), w_)[0, 0]
    return cVar


def getQuasiDiag(link):
    # Sort clustered items by distance
    link = link.astype(int)
    sortIx = pd.Series([link[-1, 0], link[-1, 1]])
    numItems = link[-1, 3]  # number of original items
    while sortIx.max() >= numItems:
        sortIx.index = range(0, sortIx.shape[0] * 2, 2)  # make space
        df0 = sortIx[sortIx >= numItems]  # find clusters
        i = df0.index
        j = df0.values - numItems
        sortIx[i] = link[j, 0]  # item 1
        df0 = pd.Series(link[j, 1], index=i + 1)
        sortIx = pd.concat([sortIx, df0])  # item 2
        sortIx = sortIx.sort_index()  # re-sort
        sortIx.index = range(sortIx.shape[0])  # re-index
    return sortIx.tolist()


def getRecBipart(cov, sortIx):
    # Compute HRP alloc
    w = pd.Series(1.0, index=sortIx)
    cItems = [sortIx]  # initialize all items in one cluster
    while len(cItems) > 0:
        cItems = [i[j:k] for i in cItems for j, k in ((0, len(i) // 2), (len(i) // 2, len(i))) if len(i) > 1]  # bi-section
        for i in range(0, len(cItems), 2):  # parse in pairs
            cItems0 = cItems[i]  # cluster 1
            cItems1 = cItems[i + 1]  # cluster 2
            cVar0 = getClusterVar(cov, cItems0)
            cVar1 = getClusterVar(cov, cItems1)
            alpha = 1 - cVar0 / (cVar0 + cVar1)
            w[cItems0] *= alpha  # weight 1
            w[cItems1] *= 1 - alpha  # weight 2
    return w


def hrp_weights(cov, link):
    """HRP weights (a pandas Series indexed by asset, in quasi-diagonal order) from an n x n
    covariance array and a scipy linkage matrix, as the paper's main(): quasi-diagonalise, then bisect."""
    cov = pd.DataFrame(cov)
    sortIx = getQuasiDiag(link)
    sortIx = cov.index[sortIx].tolist()
    return getRecBipart(cov, sortIx)


def ivp_weights(cov):
    """The inverse-variance baseline, the paper's getIVP on the whole covariance."""
    return getIVP(pd.DataFrame(cov))
