"""The client: one HTTP GET per call over the standard library, limits waited out, errors as classes."""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import os
import re
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Optional
from urllib.parse import quote

from . import _params
from .cache import DiskCache
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
    header,
)
from .query import check_names, encode_query, fixed_question
from .result import Result

__version__ = "0.1.0"

UNIVERSES_PATH = "/v1/universes"
ETAG_VERSION = re.compile(r'^(?:W/)?"dv(\d+)"$')


class Client:
    """A graph-stats client.

    ``base_url`` and ``token`` default to ``$GRAPH_STATS_URL`` and ``$GRAPH_STATS_TOKEN``. With
    ``wait`` a 429 RATE_LIMITED or a 503 is waited out for its ``Retry-After`` (when that is at most
    ``max_wait`` seconds) and retried once; DAILY_QUOTA_EXCEEDED is never retried. ``cache_dir``
    keeps answers to questions that cannot change (an explicit ``asof``, or ``start`` and ``end``)
    on disk, per data version (README: "When a cached answer can be stale").

    ``parameters`` is what chart() names are checked against: None (this graph-stats's names,
    from its OpenAPI document), ``"server"`` (the server's own ``/openapi.json``, read once; for
    another implementation of the interface), or a list of names.
    """

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        *,
        wait: bool = True,
        max_wait: float = 120,
        cache_dir: Optional[str | os.PathLike] = None,
        timeout: float = 60,
        parameters: Any = None,
    ) -> None:
        base_url = base_url or os.environ.get("GRAPH_STATS_URL")
        if not base_url:
            raise ValueError("no base_url: pass Client(base_url=...) or set GRAPH_STATS_URL")
        self.base_url = base_url.rstrip("/")
        self.token = token if token is not None else os.environ.get("GRAPH_STATS_TOKEN")
        self.wait = wait
        self.max_wait = max_wait
        self.timeout = timeout
        self.cache = DiskCache(cache_dir) if cache_dir is not None else None
        if parameters is not None and parameters != "server" and not isinstance(parameters, (list, tuple, set, frozenset)):
            raise TypeError('parameters: None, "server" or a list of names')
        self._parameters = parameters
        # How the client waits; a test may replace it to act at the moment the client would sleep.
        self._sleep: Callable[[float], None] = time.sleep
        self._version_etag: Optional[str] = None
        self._versioned = True
        #: HTTP requests this client has sent (probes included); what a re-run with a cache spends.
        self.requests_sent = 0

    def __repr__(self) -> str:
        return f"Client({self.base_url!r}, wait={self.wait}, max_wait={self.max_wait}, cache_dir={self.cache and str(self.cache.directory)!r})"

    # --- the routes -------------------------------------------------------------------------

    def chart(self, *, refresh: bool = False, **params: Any) -> Result:
        """GET /v1/graph-stats/chart (metered). Parameter names as in the API reference."""
        check_names("chart", params, self._chart_names())
        query = encode_query(params)
        if self.cache is not None and fixed_question(params):
            return self._cached(_params.CHART_PATH, query, refresh)
        return self._get(_params.CHART_PATH, query)

    def demo(self, **params: Any) -> Result:
        """GET /v1/demo/chart: the fixed sample answer, no token, not metered."""
        check_names("demo", params, _params.DEMO_PARAMS)
        return self._get(_params.DEMO_PATH, encode_query(params), auth=False)

    def health(self) -> Result:
        """GET /health."""
        return self._get("/health", "", auth=False)

    def universes(self) -> list:
        """GET /v1/universes: every stored universe (not metered), as a list of dicts."""
        return self._get(UNIVERSES_PATH, "").data["universes"]

    def universe(self, name: str) -> dict:
        """GET /v1/universes/{name}: one universe with each member's coverage (not metered)."""
        if not isinstance(name, str) or not name:
            raise TypeError("universe(name): name must be a non-empty string")
        return self._get(f"{UNIVERSES_PATH}/{quote(name, safe='')}", "").data

    def _chart_names(self) -> tuple:
        if self._parameters is None:
            return _params.CHART_PARAMS
        if self._parameters == "server":
            self._parameters = tuple(self._served_names())
        return tuple(self._parameters)

    def _served_names(self) -> list:
        """The live route's query parameters in the server's /openapi.json (public, unmetered)."""
        try:
            _, _, text = self._send("/openapi.json", "", auth=False)
        except NotFound:
            raise GraphStatsError(
                f"{self.base_url} publishes no /openapi.json: pass Client(parameters=[...names...]) instead of 'server'"
            ) from None
        document = json.loads(text)
        names = []
        for parameter in document.get("paths", {}).get(_params.CHART_PATH, {}).get("get", {}).get("parameters", []):
            if "$ref" in parameter:
                target = document
                for part in parameter["$ref"].lstrip("#/").split("/"):
                    target = target.get(part, {})
                parameter = target
            if parameter.get("in") == "query" and parameter.get("name"):
                names.append(parameter["name"])
        return names

    # --- the cache --------------------------------------------------------------------------

    def _cached(self, path: str, query: str, refresh: bool) -> Result:
        assert self.cache is not None
        version = self._data_version()
        key = DiskCache.key(self.base_url, path, query, version)
        if not refresh:
            entry = self.cache.get(key)
            if entry is not None:
                return Result.from_body(entry["body"], entry.get("headers", {}), from_cache=True)
        result = self._get(path, query)
        self.cache.put(key, {"body": result.text, "headers": result.headers, "data_version": version})
        return result

    def _data_version(self) -> Optional[str]:
        """The server's data version, from /v1/universes' ETag (a 304 when unchanged; never metered).

        None when the server has no such route (another implementation, an older server): answers
        are then kept unversioned and go stale if the data under their dates changes.
        """
        if not self._versioned:
            return None
        headers = {"If-None-Match": self._version_etag} if self._version_etag else {}
        try:
            status, got, _ = self._send(UNIVERSES_PATH, "", auth=True, extra=headers)
        except NotFound:
            self._versioned = False
            return None
        if status == 304 and self._version_etag:
            etag = self._version_etag
        else:
            etag = header(got, "ETag") or ""
        match = ETAG_VERSION.match(etag.strip())
        if not match:
            self._versioned = False
            return None
        self._version_etag = etag
        return match.group(1)

    # --- HTTP -------------------------------------------------------------------------------

    def _get(self, path: str, query: str, *, auth: bool = True) -> Result:
        try:
            _, headers, text = self._send(path, query, auth=auth)
        except (RateLimited, ServiceUnavailable) as first:
            delay = first.retry_after
            if not self.wait or delay is None or delay > self.max_wait:
                raise
            self._sleep(delay)
            _, headers, text = self._send(path, query, auth=auth)
        return Result.from_body(text, headers)

    def _send(self, path: str, query: str, *, auth: bool, extra: Optional[dict] = None) -> tuple:
        """One request; (status, headers, text) for a 2xx or 304, else the error's class raised."""
        url = self.base_url + path + (f"?{query}" if query else "")
        request = urllib.request.Request(url, method="GET")
        request.add_header("Accept", "application/json")
        request.add_header("Accept-Encoding", "gzip")
        request.add_header("User-Agent", f"graph-stats-python/{__version__}")
        for name, value in (extra or {}).items():
            request.add_header(name, value)
        if auth and self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        self.requests_sent += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, dict(response.headers.items()), _text(response.read(), response.headers)
        except urllib.error.HTTPError as failure:
            headers = dict(failure.headers.items()) if failure.headers else {}
            try:
                raw = failure.read()
            except (OSError, http.client.HTTPException) as err:
                raise Disconnected(f"GET {path}: the connection ended during a {failure.code} answer ({err})") from err
            if failure.code == 304:
                return 304, headers, ""
            raise self._error(failure.code, headers, _text(raw, failure.headers)) from None
        except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
            reason = getattr(err, "reason", err)
            raise Disconnected(f"GET {path}: no answer from {self.base_url} ({reason or type(err).__name__})") from err

    def _error(self, status: int, headers: dict, text: str) -> GraphStatsError:
        try:
            body = json.loads(text)
        except ValueError:
            body = None
        errors = body.get("errors") if isinstance(body, dict) and isinstance(body.get("errors"), list) else []
        first = errors[0] if errors and isinstance(errors[0], dict) else {}
        code = first.get("code")
        text_of = "; ".join(str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in errors)
        message = f"{status} {code or 'error'}: {text_of or text[:200] or 'no body'}"
        kw = dict(status=status, errors=errors, headers=headers, body=body)
        if status in (400, 422):  # 422: another implementation's parameter refusal
            lines = "\n".join(f"  - {e.get('message')}" for e in errors if isinstance(e, dict))
            return BadRequest(f"{status} {code}: {len(errors)} problem(s)\n{lines}" if errors else message, **kw)
        if status == 401:
            if self._expired(first):
                dashboard = f"{self.base_url}/dashboard"
                return TokenExpired(f"{message} — get a new token at {dashboard}", dashboard_url=dashboard, **kw)
            return Unauthorized(message, **kw)
        if status == 403:
            return Forbidden(message, **kw)
        if status == 404:
            return NotFound(message, **kw)
        if status == 429:
            if code == "DAILY_QUOTA_EXCEEDED":
                return QuotaExceeded(message, **kw)
            return RateLimited(message, **kw)
        if status == 503:
            return ServiceUnavailable(message, **kw)
        return GraphStatsError(message, **kw)

    def _expired(self, first: dict) -> bool:
        """The interface's expired-token 401 says so in its message; the token's own exp confirms it."""
        if "expired" in str(first.get("message", "")).lower():
            return True
        exp = _token_exp(self.token)
        return exp is not None and exp <= time.time()


def _text(raw: bytes, headers: Any) -> str:
    if (header(headers, "Content-Encoding") or "").lower() == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8")


def _token_exp(token: Optional[str]) -> Optional[float]:
    """A JWT's ``exp`` claim, read without verifying (the server verifies); None when unreadable."""
    try:
        payload = token.split(".")[1]  # type: ignore[union-attr]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        exp = claims.get("exp")
        return float(exp) if isinstance(exp, (int, float)) else None
    except (AttributeError, IndexError, ValueError, TypeError):
        return None

