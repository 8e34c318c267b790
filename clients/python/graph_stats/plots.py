"""matplotlib pictures of a Result (imported only when a plot is asked for)."""

from __future__ import annotations

from typing import Iterable, Optional


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("plots need matplotlib: pip install matplotlib") from err
    return plt


def layout(nodes: list, edges: list, seed: int, iterations: int = 200):
    """Fruchterman-Reingold positions (numpy), from a seeded start so the picture is reproducible."""
    import numpy as np

    n = len(nodes)
    index = {name: i for i, name in enumerate(nodes)}
    rng = np.random.default_rng(seed)
    pos = rng.uniform(-1, 1, size=(n, 2))
    if n < 2:
        return pos
    weights = np.zeros((n, n))
    for source, target, weight in edges:
        i, j = index[source], index[target]
        weights[i, j] = weights[j, i] = max(weight, 1e-3)
    k = 1.0 / np.sqrt(n)
    temperature = 0.1
    for _ in range(iterations):
        delta = pos[:, None, :] - pos[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=-1), 1e-4)
        force = (k * k / distance**2 - weights * distance / k)[:, :, None] * delta
        move = force.sum(axis=1)
        length = np.maximum(np.linalg.norm(move, axis=1), 1e-9)[:, None]
        pos += move / length * np.minimum(length, temperature)
        temperature *= 0.98
    return pos


def network(result, metric: Optional[str], ax, seed: int):
    plt = _pyplot()
    data = result.data or {}
    graph = data.get("graph") or data.get("latest_graph") or {}
    edge_list = graph.get("edge_list") or []
    if not edge_list:
        raise ValueError("no edge list in this answer: ask with include_graph=true")
    metrics = data.get("metrics") or []
    metric = metric or (metrics[0] if metrics else None)
    stocks = {s["symbol"]: s for s in data.get("stocks") or []}
    if data.get("type") == "rolling":  # the latest point's values
        stocks = {sym: {**s, **(s.get("points") or [{}])[-1]} for sym, s in stocks.items()}
    nodes = sorted({e["source"] for e in edge_list} | {e["target"] for e in edge_list})
    pos = layout(nodes, [(e["source"], e["target"], e["weight"]) for e in edge_list], seed)
    where = {name: pos[i] for i, name in enumerate(nodes)}
    communities = graph.get("communities") or {}
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 7))
    for e in edge_list:
        (x1, y1), (x2, y2) = where[e["source"]], where[e["target"]]
        ax.plot([x1, x2], [y1, y2], color="0.6", linewidth=0.5 + 2.5 * abs(e["corr"]), zorder=1)
    values = [stocks.get(n, {}).get(metric) if metric else None for n in nodes]
    top = max((v for v in values if v is not None), default=1) or 1
    sizes = [60 + 540 * (v or 0) / top for v in values]
    colours = [communities.get(n, -1) for n in nodes]
    ax.scatter(pos[:, 0], pos[:, 1], s=sizes, c=colours, cmap="tab10", vmin=0, vmax=9, edgecolors="black", linewidths=0.5, zorder=2)
    for name, (x, y) in where.items():
        ax.annotate(name, (x, y), fontsize=6, ha="center", va="bottom", xytext=(0, 5), textcoords="offset points")
    when = graph.get("asof_date") or data.get("asof_date") or ""
    ax.set_title(f"{graph.get('method', '')} network {when[:10]} — size: {metric}, colour: community")
    ax.set_axis_off()
    return ax


def metric_lines(result, metric: str, symbols: Optional[Iterable[str]], ax):
    plt = _pyplot()
    frame = result.to_pandas()
    frame = frame[frame["metric"] == metric]
    if frame.empty:
        raise ValueError(f"no '{metric}' in this answer; it has: {', '.join((result.data or {}).get('metrics') or [])}")
    if symbols is not None:
        wanted = list(symbols)
        frame = frame[frame["symbol"].isin(wanted)]
    wide = frame.pivot_table(index="date", columns="symbol", values="value", aggfunc="first")
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4))
    wide.plot(ax=ax)
    ax.set_title(f"{metric} over time")
    ax.set_ylabel(metric)
    return ax
