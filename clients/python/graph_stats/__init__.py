"""graph-stats client: the correlation-network API from Python, limits handled, answers as frames.

    from graph_stats import Client
    gs = Client()                                   # GRAPH_STATS_URL, GRAPH_STATS_TOKEN
    df = gs.chart(periods=30, metrics=["pagerank"]).to_pandas()
"""

from ._params import CHART_PARAMS, DEMO_PARAMS
from .client import Client, __version__
from .errors import (
    BadRequest,
    Disconnected,
    Forbidden,
    GraphStatsError,
    NotFound,
    QuotaExceeded,
    RateLimited,
    ServiceUnavailable,
    TokenExpired,
    Unauthorized,
)
from .result import RateLimit, Result

__all__ = [
    "CHART_PARAMS",
    "DEMO_PARAMS",
    "BadRequest",
    "Client",
    "Disconnected",
    "Forbidden",
    "GraphStatsError",
    "NotFound",
    "QuotaExceeded",
    "RateLimit",
    "RateLimited",
    "Result",
    "ServiceUnavailable",
    "TokenExpired",
    "Unauthorized",
    "__version__",
]
