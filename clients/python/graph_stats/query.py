"""Python values to the query string, and parameter names checked before any request is sent."""

from __future__ import annotations

import difflib
from datetime import date, datetime
from typing import Any, Iterable, Mapping
from urllib.parse import urlencode


def check_names(route: str, given: Iterable[str], known: Iterable[str]) -> None:
    """A name the route does not take is a TypeError naming it (and the closest known name)."""
    known = tuple(known)
    unknown = [name for name in given if name not in known]
    if not unknown:
        return
    problems = []
    for name in unknown:
        close = difflib.get_close_matches(name, known, n=1)
        problems.append(f"'{name}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
    raise TypeError(f"{route}() got unknown parameter {', '.join(problems)}; it takes: {', '.join(known)}")


def encode_value(name: str, value: Any) -> str:
    """One parameter's value as the interface spells it: lists comma-joined, dates YYYY-MM-DD, booleans true/false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, (set, frozenset)):
        return ",".join(encode_value(name, v) for v in sorted(value))
    if isinstance(value, (list, tuple)):
        return ",".join(encode_value(name, v) for v in value)
    raise TypeError(f"parameter '{name}': cannot send a {type(value).__name__}; use str, int, float, bool, date or a list of them")


def encode_query(params: Mapping[str, Any]) -> str:
    """The query string (None values left out, so the server's default applies); `&` in symbols is encoded."""
    pairs = [(name, encode_value(name, value)) for name, value in params.items() if value is not None]
    return urlencode(pairs, safe=",")


def fixed_question(params: Mapping[str, Any]) -> bool:
    """True when the answer cannot change while the data does not: an explicit asof, or start and end."""
    given = {name for name, value in params.items() if value is not None}
    return "asof" in given or {"start", "end"} <= given
