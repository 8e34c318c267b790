"""Every failure the service answers, one class per case, all under GraphStatsError.

The class is chosen from what the interface binds: the status and ``errors[0].code`` of the
envelope, the ``Retry-After`` header and the expired-token 401 (its message says the token
expired), so the same classes come out of any implementation of the interface.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone
from email.message import Message
from typing import Any, Mapping, Optional


class GraphStatsError(Exception):
    """Base class. ``errors`` is the envelope's list, ``headers`` the response's (``{}`` when none)."""

    def __init__(
        self,
        message: str,
        *,
        status: Optional[int] = None,
        errors: Optional[list] = None,
        headers: Optional[Mapping[str, str]] = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.errors: list = list(errors or [])
        self.headers: dict = dict(headers or {})
        self.body = body

    @property
    def code(self) -> Optional[str]:
        """``errors[0].code`` of the envelope, or None when the answer was no envelope."""
        first = self.errors[0] if self.errors else None
        return first.get("code") if isinstance(first, dict) else None

    @property
    def request_id(self) -> Optional[str]:
        return header(self.headers, "X-Request-Id")


class BadRequest(GraphStatsError):
    """400: every problem the server found is in ``errors`` (and in the message, one a line)."""


class Unauthorized(GraphStatsError):
    """401 other than an expired token (missing, malformed, badly signed, revoked…), or 403."""


class TokenExpired(Unauthorized):
    """401 for a token past its ``exp``: get a new one from the dashboard (``dashboard_url``)."""

    def __init__(self, message: str, *, dashboard_url: str, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.dashboard_url = dashboard_url


class NotFound(GraphStatsError):
    """404: unknown route or universe, fewer than 2 known symbols, or no as-of with data."""


class RateLimited(GraphStatsError):
    """429 RATE_LIMITED: the per-minute window is full; ``retry_after`` seconds until a slot frees."""

    @property
    def retry_after(self) -> Optional[float]:
        return retry_after(self.headers)


class QuotaExceeded(GraphStatsError):
    """429 DAILY_QUOTA_EXCEEDED: the day's quota is spent; retrying before ``resets_at`` is pointless."""

    def __init__(self, message: str, *, received_at: Optional[float] = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self._received_at = time.time() if received_at is None else received_at

    @property
    def retry_after(self) -> Optional[float]:
        return retry_after(self.headers)

    @property
    def resets_at(self) -> Optional[datetime]:
        """When the quota resets (UTC): the response's time plus its ``Retry-After``."""
        wait = self.retry_after
        if wait is None:
            return None
        return datetime.fromtimestamp(self._received_at + wait, tz=timezone.utc)


class ServiceUnavailable(GraphStatsError):
    """503: the service is busy, draining or without its database; ``retry_after`` says when to retry."""

    @property
    def retry_after(self) -> Optional[float]:
        return retry_after(self.headers)


class Forbidden(Unauthorized):
    """403: a valid token of a disabled user."""


class Disconnected(GraphStatsError, ConnectionError):
    """No answer: the connection was refused, reset or closed before a full response, or timed out.

    Never retried: a metered request may have been admitted before the connection went.
    """


def header(headers: Mapping[str, str], name: str) -> Optional[str]:
    """A header's value by case-insensitive name."""
    if isinstance(headers, Message):
        return headers.get(name)
    lower = name.lower()
    for key, value in headers.items():
        if key.lower() == lower:
            return value
    return None


def retry_after(headers: Mapping[str, str]) -> Optional[float]:
    """``Retry-After`` in seconds (the delta-seconds form; an HTTP date is converted)."""
    raw = header(headers, "Retry-After")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime

        return max(0.0, parsedate_to_datetime(raw).timestamp() - time.time())
    except (TypeError, ValueError):
        return None
