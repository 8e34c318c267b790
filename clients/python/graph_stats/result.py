"""An answer: its envelope's data and meta, its rate-limit headers, and tidy frames of both."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Optional

from .errors import header

RATE_LIMIT_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Daily-Limit",
    "X-RateLimit-Daily-Remaining",
    "X-RateLimit-Reset",
)
# Columns a tidy frame carries after date, symbol, metric, value, in this order when present.
LEADING_EXTRAS = ("community", "cluster", "weight", "sector", "name", "industry")
SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class RateLimit:
    """The five X-RateLimit-* headers of a metered answer."""

    limit: int
    remaining: int
    daily_limit: int
    daily_remaining: int
    reset: int

    @property
    def reset_at(self) -> datetime:
        """When the next minute slot frees (X-RateLimit-Reset, UTC)."""
        return datetime.fromtimestamp(self.reset, tz=timezone.utc)

    @classmethod
    def from_headers(cls, headers: Mapping[str, str]) -> Optional["RateLimit"]:
        values = [header(headers, name) for name in RATE_LIMIT_HEADERS]
        if any(v is None for v in values):
            return None
        try:
            return cls(*(int(float(v)) for v in values))  # type: ignore[arg-type]
        except ValueError:
            return None


class Result:
    """``data`` and ``meta`` of the envelope (``text`` for format=csv/ndjson), ``headers``, ``rate_limit``.

    ``from_cache`` is True when the answer came from the client's cache_dir (then ``rate_limit`` is
    None: nothing was spent).
    """

    def __init__(self, text: str, headers: Mapping[str, str], body: Any, from_cache: bool) -> None:
        self.text = text
        self.headers = dict(headers)
        self.from_cache = from_cache
        envelope = body if isinstance(body, dict) and "data" in body else None
        self.data: Any = envelope.get("data") if envelope else None
        self.meta: dict = (envelope.get("meta") or {}) if envelope else {}
        self.rate_limit = None if from_cache else RateLimit.from_headers(headers)

    @classmethod
    def from_body(cls, text: str, headers: Mapping[str, str], from_cache: bool = False) -> "Result":
        content_type = (header(headers, "Content-Type") or "").lower()
        body = None
        if "json" in content_type and "ndjson" not in content_type:
            body = json.loads(text) if text else None
        return cls(text, headers, body, from_cache)

    def __repr__(self) -> str:
        kind = self.data.get("type") if isinstance(self.data, dict) else None
        return f"<Result {kind or 'answer'}{' (cached)' if self.from_cache else ''} {self.meta.get('request_id', '')}>"

    # --- frames -----------------------------------------------------------------------------

    def tidy_rows(self) -> list:
        """The long rows of to_pandas() as dicts (no pandas needed)."""
        data = self.data if isinstance(self.data, dict) else {}
        if not isinstance(data.get("metrics"), list):
            return _generic_rows(data)
        metrics = list(data.get("metrics") or [])
        rows: list = []
        for stock in data.get("stocks") or []:
            base = _extras(stock, metrics)
            if data.get("type") == "rolling":
                for point in stock.get("points") or []:
                    rows.extend(_metric_rows(point.get("date"), stock.get("symbol"), point, metrics, {**base, **_extras(point, metrics)}))
            else:
                rows.extend(_metric_rows(data.get("asof_date"), stock.get("symbol"), stock, metrics, base))
        return rows

    def to_pandas(self):
        """Tidy frame ``date, symbol, metric, value`` plus community/cluster/weight/sector (and any
        other per-stock field, e.g. ``p05``/``p95`` bands) where present; snapshot and rolling alike."""
        pd = _pandas()
        if self.data is None and self.text:
            content_type = (header(self.headers, "Content-Type") or "").lower()
            if "ndjson" in content_type:
                return pd.read_json(io.StringIO(self.text), lines=True)
            return pd.read_csv(io.StringIO(self.text))
        rows = self.tidy_rows()
        columns = ["date", "symbol", "metric", "value"]
        seen = {key for row in rows for key in row}
        columns += [c for c in LEADING_EXTRAS if c in seen]
        columns += sorted(seen - set(columns))
        frame = pd.DataFrame(rows, columns=columns)
        frame["date"] = _dates(pd, frame["date"])
        return frame

    def edges(self):
        """The graph's edge list: ``date, source, target, weight, corr`` (and e.g. ``reliability``);
        every as-of's graph with include_graph=all, else the snapshot's or the latest graph."""
        pd = _pandas()
        data = self.data if isinstance(self.data, dict) else {}
        graphs = data.get("graphs") or [data.get("graph") or data.get("latest_graph") or {}]
        rows = []
        for graph in graphs:
            when = graph.get("asof_date") or graph.get("date")
            for edge in graph.get("edge_list") or []:
                rows.append({"date": when, **edge})
        columns = ["date", "source", "target", "weight", "corr"]
        columns += sorted({k for row in rows for k in row} - set(columns))
        frame = pd.DataFrame(rows, columns=columns)
        frame["date"] = _dates(pd, frame["date"])
        return frame

    def graph_stats(self):
        """Per-as-of graph statistics (modularity, community_stability with bootstrap, mean_abs_corr,
        tree_length, …, sector_agreement when served)."""
        pd = _pandas()
        data = self.data if isinstance(self.data, dict) else {}
        frame = pd.DataFrame(data.get("graph_stats") or [])
        if "date" in frame:
            frame["date"] = _dates(pd, frame["date"])
        return frame

    def graphs(self) -> list:
        """The answer's graph objects, each with its ``asof_date``: every as-of's with
        include_graph="all", else the snapshot's or the latest one (no pandas needed)."""
        data = self.data if isinstance(self.data, dict) else {}
        if data.get("graphs"):
            return list(data["graphs"])
        one = data.get("graph") or data.get("latest_graph")
        if not one:
            return []
        when = one.get("asof_date") or data.get("asof_date") or (data.get("asof_dates") or [None])[-1]
        return [{**one, "asof_date": when}]

    def spectra(self) -> list:
        """spectrum=True: per graph, ``{date, eigenvalues, lambda_plus, n_above, absorption_ratio}``
        (the eigenvalues descending, before denoise/detone), oldest first (no pandas needed)."""
        return [{"date": g.get("asof_date"), **g["spectrum"]} for g in self.graphs() if g.get("spectrum")]

    def spectrum(self, date: Any = None) -> dict:
        """The spectrum at ``date`` (an ISO date or datetime.date; the latest by default)."""
        return _at(self.spectra(), date, "spectrum", "spectrum=True")

    def corr_matrix(self, date: Any = None, frame: bool = True):
        """include_corr=True: the matrix the graph at ``date`` (the latest by default) was built from,
        after every filter, as a pandas DataFrame indexed by symbol both ways; ``frame=False`` gives
        ``(symbols, rows)`` as lists (no pandas needed)."""
        found = [{"date": g.get("asof_date"), **g["corr_matrix"]} for g in self.graphs() if g.get("corr_matrix")]
        chosen = _at(found, date, "corr_matrix", "include_corr=True")
        symbols, rows = list(chosen["symbols"]), [list(r) for r in chosen["matrix"]]
        if not frame:
            return symbols, rows
        return _pandas().DataFrame(rows, index=symbols, columns=symbols, dtype=float)

    def hierarchy(self) -> Optional[dict]:
        """The snapshot's hierarchy or a rolling answer's latest one (with hierarchy= or weights=hrp)."""
        data = self.data if isinstance(self.data, dict) else {}
        return data.get("hierarchy") or data.get("latest_hierarchy")

    def linkage(self):
        """The hierarchy as scipy's linkage matrix Z (numpy) and its leaf labels, for dendrogram()."""
        import numpy as np

        tree = self.hierarchy()
        if not tree:
            raise ValueError("no hierarchy in this answer: ask with hierarchy=single|average|complete|ward or weights='hrp'")
        z = np.array([[a, b, np.nan if h is None else h, n] for a, b, h, n in tree["merges"]], dtype=float)
        return z, list(tree["leaves"])

    # --- pictures ---------------------------------------------------------------------------

    def plot_network(self, metric: Optional[str] = None, ax=None, seed: int = 7):
        """The graph drawn with matplotlib: node size by ``metric`` (the first asked by default),
        colour by community, edge width by |rho|. A force layout computed here (numpy), seeded."""
        from .plots import network

        return network(self, metric, ax, seed)

    def plot_metric(self, metric: str, symbols: Optional[Iterable[str]] = None, ax=None):
        """A metric over the as-ofs, one line per symbol (all when ``symbols`` is None)."""
        from .plots import metric_lines

        return metric_lines(self, metric, symbols, ax)


def _extras(obj: Mapping[str, Any], metrics: list) -> dict:
    """Per-stock scalars other than the metrics and their per-metric fields."""
    out = {}
    for key, value in obj.items():
        if key in ("symbol", "points", "date") or key in metrics or not isinstance(value, SCALARS):
            continue
        if any(key.startswith(f"{m}_") for m in metrics):
            continue
        out[key] = value
    return out


def _metric_rows(when: Any, symbol: Any, obj: Mapping[str, Any], metrics: list, extras: dict) -> list:
    rows = []
    for metric in metrics:
        row = {"date": when, "symbol": symbol, "metric": metric, "value": obj.get(metric), **extras}
        prefix = f"{metric}_"
        for key, value in obj.items():
            if key.startswith(prefix) and isinstance(value, SCALARS):
                row[key[len(prefix) :]] = value
        rows.append(row)
    return rows


def _generic_rows(data: Mapping[str, Any]) -> list:
    """Long rows from an answer of another shape (the interface binds only ``data.stocks``): each
    stock's numbers, also those nested one level (``measures: {degree: 3}``), are metrics; a list
    of numbers as long as a list of dates in ``data`` is a series over those dates."""
    dates = next((v for v in data.values() if isinstance(v, list) and v and all(isinstance(x, str) for x in v)), None)
    when = next((data[k] for k in ("asof_date", "as_of", "date") if isinstance(data.get(k), str)), None)
    rows: list = []
    for stock in data.get("stocks") or []:
        if not isinstance(stock, dict):
            continue
        ident_key = next((k for k in ("symbol", "ticker") if k in stock), None) or next((k for k, v in stock.items() if isinstance(v, str)), None)
        ident = stock.get(ident_key) if ident_key else None
        extras = {k: v for k, v in stock.items() if k != ident_key and isinstance(v, (str, bool, type(None)))}
        flat = {}
        for key, value in stock.items():
            if isinstance(value, dict):
                flat.update(value)
            elif key != ident_key:
                flat[key] = value
        for metric, value in flat.items():
            if isinstance(value, list) and dates and len(value) == len(dates):
                rows.extend({"date": d, "symbol": ident, "metric": metric, "value": v, **extras} for d, v in zip(dates, value))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                rows.append({"date": when, "symbol": ident, "metric": metric, "value": value, **extras})
    return rows


def _at(items: list, date: Any, what: str, ask: str) -> dict:
    """The item whose date (an ISO date-time) falls on ``date``; the last when ``date`` is None."""
    if not items:
        raise ValueError(f"no {what} in this answer: ask with {ask}")
    if date is None:
        return items[-1]
    day = date.isoformat()[:10] if hasattr(date, "isoformat") else str(date)[:10]
    for item in items:
        if str(item.get("date") or "")[:10] == day:
            return item
    have = ", ".join(str(i.get("date"))[:10] for i in items)
    raise ValueError(f"no {what} at {day} in this answer (it has {have}; include_graph='all' gives every as-of)")


def _dates(pd, column):
    """ISO dates with their exchange offset as timezone-aware timestamps (strings if offsets differ)."""
    try:
        parsed = pd.to_datetime(column)
    except (ValueError, TypeError):
        return column
    return parsed if str(parsed.dtype).startswith("datetime64") else column


def _pandas():
    try:
        import pandas as pd
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas()/edges() need pandas: pip install pandas") from err
    return pd
