#!/usr/bin/env python3
"""A second, independent implementation of the graph-stats HTTP interface (Python standard library only).

It exists to show that the conformance kit, and its OpenAPI-driven fuzz profile, are fair to an
implementation that makes other choices wherever the interface leaves one open. Those choices are
listed in README.md next to this file. Start:

    python3 server.py --port 0 --secret S [--per-minute N] [--per-day N] [--db PATH]
                      [--require-interval] [--prefer-rate-limited] [--no-openapi]

The first line on stdout is `listening on http://HOST:PORT`. SIGTERM or SIGINT stop it cleanly.
"""

import argparse
import base64
import hashlib
import hmac
import json
import math
import os
import random
import re
import signal
import sqlite3
import sys
import threading
import time
from datetime import date, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

VERSION = "0.1.0"
LIVE, DEMO, HEALTH, OPENAPI = "/v1/graph-stats/chart", "/v1/demo/chart", "/health", "/openapi.json"
MINUTE_S, DAY_S = 60, 86400

# ---------------------------------------------------------------- data: a deterministic synthetic market

TICKERS = ["ALFA", "BRVO", "CHRL", "DLTA", "ECHO", "FXTR", "GOLF", "HTLX", "INDA", "JLTT"]
SECTOR = {"ALFA": 0, "BRVO": 0, "CHRL": 0, "DLTA": 1, "ECHO": 1, "FXTR": 1, "GOLF": 2, "HTLX": 2, "INDA": 2, "JLTT": 2}
N_BARS = 260
MEASURES = ["degree", "strength", "eigenvector"]
BOUNDS = {"lookback": (5, 120, 30), "periods": (1, 20, 1)}
DEFAULT_MIN_ABS_CORR = 0.3
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def make_dataset(seed=20251122):
    """Daily closes on weekdays from 2024-01-01: a market factor, a sector factor and noise per ticker."""
    rng = random.Random(seed)
    dates, d = [], date(2024, 1, 1)
    while len(dates) < N_BARS:
        if d.weekday() < 5:
            dates.append(d.isoformat())
        d += timedelta(days=1)
    closes = {t: [100.0 + 10 * i] for i, t in enumerate(TICKERS)}
    for _ in range(N_BARS - 1):
        market = rng.gauss(0, 1)
        sectors = [rng.gauss(0, 1) for _ in range(3)]
        for t in TICKERS:
            r = 0.0002 + 0.009 * market + 0.007 * sectors[SECTOR[t]] + 0.011 * rng.gauss(0, 1)
            closes[t].append(closes[t][-1] * math.exp(r))
    return dates, closes


DATES, CLOSES = make_dataset()


def pearson(x, y):
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    return 0.0 if sxx == 0 or syy == 0 else max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def eigenvector(adj):
    """Power iteration on A + I (same eigenvectors, always converges for A >= 0); scaled so the top is 1."""
    n = len(adj)
    if not any(any(row) for row in adj):
        return [0.0] * n
    x = [1.0] * n
    for _ in range(500):
        y = [x[i] + sum(adj[i][j] * x[j] for j in range(n)) for i in range(n)]
        top = max(y)
        y = [v / top for v in y]
        if max(abs(a - b) for a, b in zip(x, y)) < 1e-12:
            return y
        x = y
    return x


def snapshot(tickers, end, lookback, threshold):
    """Measures of every ticker at bar index `end`, from log returns of the `lookback` bars up to it."""
    rets = {t: [math.log(CLOSES[t][i] / CLOSES[t][i - 1]) for i in range(end - lookback + 1, end + 1)] for t in tickers}
    n = len(tickers)
    adj = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            c = abs(pearson(rets[tickers[i]], rets[tickers[j]]))
            if c >= threshold:
                adj[i][j] = adj[j][i] = c
    eig = eigenvector(adj)
    out = []
    for i in range(n):
        out.append({
            "degree": sum(1 for v in adj[i] if v > 0),
            "strength": round(sum(adj[i]), 6),
            "eigenvector": round(eig[i], 6),
        })
    edges = sum(1 for i in range(n) for j in range(i + 1, n) if adj[i][j] > 0)
    return out, edges


def chart(q):
    """The chart answer for validated query `q` (a snapshot when periods is 1, else a series)."""
    last = N_BARS - 1
    ends = list(range(last - q["periods"] + 1, last + 1))
    snaps = [snapshot(q["tickers"], e, q["lookback"], q["min_abs_corr"]) for e in ends]
    common = {"interval": q["interval"], "lookback": q["lookback"], "min_abs_corr": q["min_abs_corr"], "measures": q["measures"]}
    if q["periods"] == 1:
        rows, edges = snaps[0]
        stocks = [{"ticker": t, "measures": {m: rows[i][m] for m in q["measures"]}} for i, t in enumerate(q["tickers"])]
        return {"kind": "snapshot", "as_of": DATES[last], "edge_count": edges, **common, "stocks": stocks}
    stocks = [
        {"ticker": t, "measures": {m: [s[0][i][m] for s in snaps] for m in q["measures"]}} for i, t in enumerate(q["tickers"])
    ]
    return {"kind": "series", "dates": [DATES[e] for e in ends], "edge_counts": [s[1] for s in snaps], **common, "stocks": stocks}


# ---------------------------------------------------------------- query validation


class Invalid(Exception):
    def __init__(self, problems):
        super().__init__("; ".join(problems))
        self.problems = problems


def parse_query(raw, require_interval=False):
    """Validate the chart parameters; unknown parameters are ignored and a repeated one keeps its last value.

    With `require_interval` (the --require-interval variant) `interval` has no default: leaving it out is a 422.
    """
    params = dict(parse_qsl(raw, keep_blank_values=True))
    problems, q = [], {}

    def integer(name):
        lo, hi, default = BOUNDS[name]
        v = params.get(name)
        if v is None:
            return default
        # Leading zeros stripped and the length bounded before int(): Python 3.11+ refuses to convert
        # more than 4300 digits (a ValueError, which was a 500 for `periods=1` followed by 4,500 nines).
        digits = (v.lstrip("0") or "0") if v.isascii() and v.isdigit() else ""
        if not digits or len(digits) > len(str(hi)) or not lo <= int(digits) <= hi:
            problems.append(f"parameter '{name}' must be an integer from {lo} to {hi}; received '{v[:40]}'")
            return default
        return int(digits)

    def listing(name, allowed, default, min_items):
        v = params.get(name)
        if v is None:
            return default
        items = v.split(",")
        bad = [i for i in items if i not in allowed]
        if bad or len(set(items)) != len(items) or len(items) < min_items:
            problems.append(
                f"parameter '{name}' must list {min_items} or more distinct values of {', '.join(allowed)} separated by commas; "
                f"received '{v[:80]}'"
            )
            return default
        return items

    q["interval"] = params.get("interval", None if require_interval else "1d")
    if q["interval"] is None:
        problems.append("parameter 'interval' is required; the only value served is 1d")
        q["interval"] = "1d"
    elif q["interval"] != "1d":
        problems.append(f"parameter 'interval' must be 1d (daily bars are the only ones served); received '{q['interval'][:40]}'")
    q["lookback"] = integer("lookback")
    q["periods"] = integer("periods")
    raw_thr = params.get("min_abs_corr")
    q["min_abs_corr"] = DEFAULT_MIN_ABS_CORR
    if raw_thr is not None:
        thr = float(raw_thr) if NUMBER.fullmatch(raw_thr) else -1.0
        if 0 <= thr <= 1:
            q["min_abs_corr"] = thr
        else:
            problems.append(f"parameter 'min_abs_corr' must be a number from 0 to 1; received '{raw_thr[:40]}'")
    q["measures"] = listing("measures", MEASURES, MEASURES, 1)
    q["tickers"] = listing("tickers", TICKERS, TICKERS, 2)
    if problems:
        raise Invalid(problems)
    return q


# ---------------------------------------------------------------- tokens: HS256 only


class TokenError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def b64url_decode(seg):
    if not seg or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in seg):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(seg + "=" * (-len(seg) % 4))


def verify_token(auth, secret, now):
    """The user id (`sub`) of a valid bearer token, else TokenError."""
    if not auth:
        raise TokenError("MISSING_TOKEN", "this endpoint needs an 'Authorization: Bearer <token>' header")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token or " " in token:
        raise TokenError("INVALID_TOKEN", "the Authorization header is not of the form 'Bearer <token>'")
    parts = token.split(".")
    try:
        if len(parts) != 3:
            raise ValueError
        header, payload = json.loads(b64url_decode(parts[0])), json.loads(b64url_decode(parts[1]))
        sig = b64url_decode(parts[2]) if parts[2] else b""
        if not isinstance(header, dict) or not isinstance(payload, dict):
            raise ValueError
    except ValueError:
        raise TokenError("INVALID_TOKEN", "the bearer token is not a well-formed JWT") from None
    if header.get("alg") != "HS256":
        raise TokenError("INVALID_TOKEN", "only HS256-signed tokens are accepted")
    expected = hmac.new(secret.encode(), f"{parts[0]}.{parts[1]}".encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, sig):
        raise TokenError("INVALID_TOKEN", "the token signature does not verify")
    exp, sub, nbf = payload.get("exp"), payload.get("sub"), payload.get("nbf")
    if not isinstance(exp, (int, float)) or isinstance(exp, bool):
        raise TokenError("INVALID_TOKEN", "the token has no numeric 'exp' claim")
    if not isinstance(sub, str) or not 1 <= len(sub) <= 200:
        raise TokenError("INVALID_TOKEN", "the token has no 'sub' claim naming the user")
    if exp <= now:
        when = datetime.fromtimestamp(exp, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        raise TokenError("UNAUTHORIZED", f"the token expired at {when}; generate a new token in the dashboard")
    if isinstance(nbf, (int, float)) and not isinstance(nbf, bool) and nbf > now + 60:
        raise TokenError("INVALID_TOKEN", "the token is not valid yet (nbf is in the future)")
    return sub


# ---------------------------------------------------------------- metering: anchored windows in sqlite


class Meter:
    """Per user: a minute window and a day window, each opened by the first admitted request after the previous one ended."""

    def __init__(self, path, per_minute, per_day, prefer_rate_limited=False):
        self.per_minute, self.per_day = per_minute, per_day
        # When both windows are used up, which 429 wins is an open choice: DAILY_QUOTA_EXCEEDED by default,
        # RATE_LIMITED with --prefer-rate-limited.
        self.prefer_rate_limited = prefer_rate_limited
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS meter (user TEXT PRIMARY KEY, min_start REAL, min_count INTEGER, day_start REAL, day_count INTEGER)"
        )

    def ping(self):
        with self.lock:
            self.db.execute("SELECT 1").fetchone()

    def admit(self, user, now):
        """(admitted, refusal code or None, headers). Check and record are one IMMEDIATE transaction."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                row = self.db.execute("SELECT min_start, min_count, day_start, day_count FROM meter WHERE user = ?", (user,)).fetchone()
                m_start, m_count, d_start, d_count = row or (None, 0, None, 0)
                if m_start is None or now >= m_start + MINUTE_S:
                    m_start, m_count = None, 0
                if d_start is None or now >= d_start + DAY_S:
                    d_start, d_count = None, 0
                code = None
                if m_count >= self.per_minute and (self.prefer_rate_limited or d_count < self.per_day):
                    code = "RATE_LIMITED"
                elif d_count >= self.per_day:
                    code = "DAILY_QUOTA_EXCEEDED"
                else:
                    m_start = now if m_start is None else m_start
                    d_start = now if d_start is None else d_start
                    m_count, d_count = m_count + 1, d_count + 1
                    self.db.execute(
                        "INSERT INTO meter VALUES (?, ?, ?, ?, ?) ON CONFLICT(user) DO UPDATE SET "
                        "min_start = excluded.min_start, min_count = excluded.min_count, "
                        "day_start = excluded.day_start, day_count = excluded.day_count",
                        (user, m_start, m_count, d_start, d_count),
                    )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        headers = {
            "X-RateLimit-Limit": str(self.per_minute),
            "X-RateLimit-Remaining": str(self.per_minute - m_count),
            "X-RateLimit-Daily-Limit": str(self.per_day),
            "X-RateLimit-Daily-Remaining": str(self.per_day - d_count),
            # No open minute window: it has already reset, so Reset is the current second.
            "X-RateLimit-Reset": str(math.ceil(m_start + MINUTE_S) if m_start is not None else math.ceil(now)),
        }
        retry, message = None, None
        if code == "RATE_LIMITED":
            retry = max(1, math.ceil(m_start + MINUTE_S - now))
            noun = "request" if self.per_minute == 1 else "requests"
            message = f"rate limit exceeded: {self.per_minute} {noun}/minute. Retry in {retry}s."
        elif code == "DAILY_QUOTA_EXCEEDED":
            retry = max(1, math.ceil(d_start + DAY_S - now))
            resets = datetime.fromtimestamp(d_start + DAY_S, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            message = f"daily quota of {self.per_day} requests used; it renews at {resets}, 24 hours after the first request of the day"
        if retry is not None:
            headers["Retry-After"] = str(retry)
        return code, message, headers


# ---------------------------------------------------------------- OpenAPI document (3.0.3) describing exactly the above

RL_HEADERS = {
    name: {"description": text, "required": True, "schema": {"type": "integer", "minimum": 0}}
    for name, text in [
        ("X-RateLimit-Limit", "requests allowed per minute window"),
        ("X-RateLimit-Remaining", "requests left in the current minute window, after this one"),
        ("X-RateLimit-Daily-Limit", "requests allowed per day window"),
        ("X-RateLimit-Daily-Remaining", "requests left in the current day window, after this one"),
        ("X-RateLimit-Reset", "Unix epoch seconds at which the current minute window resets"),
    ]
}
RETRY_AFTER = {"description": "whole seconds to wait", "required": True, "schema": {"type": "integer", "minimum": 1}}
META = {
    "type": "object",
    "required": ["generated_at"],
    "additionalProperties": False,
    "properties": {"generated_at": {"type": "string", "format": "date-time"}, "demo": {"type": "boolean", "enum": [True]}},
}


def error_body(codes):
    return {
        "type": "object",
        "required": ["success", "errors", "data", "meta"],
        "additionalProperties": False,
        "properties": {
            "success": {"type": "boolean", "enum": [False]},
            "errors": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["code", "message"],
                    "additionalProperties": False,
                    "properties": {"code": {"type": "string", "enum": codes}, "message": {"type": "string", "minLength": 1}},
                },
            },
            "data": {"type": "object", "nullable": True, "maxProperties": 0, "description": "always null"},
            "meta": {"$ref": "#/components/schemas/Meta"},
        },
    }


def json_response(description, schema, headers=None):
    r = {"description": description, "content": {"application/json": {"schema": schema}}}
    if headers:
        r["headers"] = headers
    return r


def measures_schema(series):
    num = {"type": "number", "minimum": 0}
    intg = {"type": "integer", "minimum": 0}
    wrap = (lambda s: {"type": "array", "minItems": 2, "items": s}) if series else (lambda s: s)
    return {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": False,
        "properties": {"degree": wrap(intg), "strength": wrap(num), "eigenvector": wrap({"type": "number", "minimum": 0, "maximum": 1})},
    }


def chart_data_schema(series):
    props = {
        "kind": {"type": "string", "enum": ["series" if series else "snapshot"]},
        "interval": {"type": "string", "enum": ["1d"]},
        "lookback": {"type": "integer"},
        "min_abs_corr": {"type": "number"},
        "measures": {"type": "array", "items": {"type": "string", "enum": MEASURES}},
        "stocks": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["ticker", "measures"],
                "additionalProperties": False,
                "properties": {"ticker": {"type": "string", "enum": TICKERS}, "measures": measures_schema(series)},
            },
        },
    }
    if series:
        props["dates"] = {"type": "array", "minItems": 2, "items": {"type": "string", "format": "date"}}
        props["edge_counts"] = {"type": "array", "minItems": 2, "items": {"type": "integer", "minimum": 0}}
    else:
        props["as_of"] = {"type": "string", "format": "date"}
        props["edge_count"] = {"type": "integer", "minimum": 0}
    return {"type": "object", "required": sorted(props), "additionalProperties": False, "properties": props}


def envelope(data_schema):
    return {
        "type": "object",
        "required": ["success", "data", "meta"],
        "additionalProperties": False,
        "properties": {"success": {"type": "boolean", "enum": [True]}, "data": data_schema, "meta": {"$ref": "#/components/schemas/Meta"}},
    }


def openapi_document(require_interval=False):
    interval = {"type": "string", "enum": ["1d"]} if require_interval else {"type": "string", "enum": ["1d"], "default": "1d"}
    chart_params = [
        {"name": "interval", "in": "query", "required": require_interval, "schema": interval},
        *[
            {"name": n, "in": "query", "required": False, "schema": {"type": "integer", "minimum": lo, "maximum": hi, "default": d}}
            for n, (lo, hi, d) in BOUNDS.items()
        ],
        {
            "name": "min_abs_corr",
            "in": "query",
            "required": False,
            "description": "edges join stocks whose absolute correlation is at least this",
            "schema": {"type": "number", "minimum": 0, "maximum": 1, "default": DEFAULT_MIN_ABS_CORR},
        },
        {
            "name": "measures",
            "in": "query",
            "required": False,
            "style": "form",
            "explode": False,
            "schema": {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"type": "string", "enum": MEASURES}, "default": MEASURES},
        },
        {
            "name": "tickers",
            "in": "query",
            "required": False,
            "style": "form",
            "explode": False,
            "schema": {"type": "array", "minItems": 2, "uniqueItems": True, "items": {"type": "string", "enum": TICKERS}, "default": TICKERS},
        },
    ]
    ok = {"oneOf": [chart_data_schema(False), chart_data_schema(True)]}
    transport = {
        "414": json_response("request line longer than 64 KiB", error_body(["URI_TOO_LONG"])),
        "431": json_response("request headers too large or too many", error_body(["HEADERS_TOO_LARGE"])),
        "500": json_response("unexpected failure", error_body(["INTERNAL_ERROR"])),
    }
    invalid = error_body(["INVALID_PARAMETER"])
    rl429 = {**RL_HEADERS, "Retry-After": RETRY_AFTER}
    return {
        "openapi": "3.0.3",
        "info": {"title": "graph-stats (second implementation, Python)", "version": VERSION},
        "paths": {
            LIVE: {
                "get": {
                    "operationId": "liveChart",
                    "security": [{"bearer": []}],
                    "parameters": chart_params,
                    "responses": {
                        "200": json_response("chart data; counted against the user's windows", envelope(ok), RL_HEADERS),
                        "401": json_response("no valid token (expired: UNAUTHORIZED); not counted", error_body(["UNAUTHORIZED", "MISSING_TOKEN", "INVALID_TOKEN"])),
                        "422": json_response("a parameter is invalid; counted like any admitted request", invalid, RL_HEADERS),
                        "429": json_response("a window is used up; not counted", error_body(["RATE_LIMITED", "DAILY_QUOTA_EXCEEDED"]), rl429),
                        **transport,
                    },
                }
            },
            DEMO: {
                "get": {
                    "operationId": "demoChart",
                    "security": [],
                    "parameters": chart_params,
                    "responses": {"200": json_response("chart data, unmetered", envelope(ok)), "422": json_response("a parameter is invalid", invalid), **transport},
                }
            },
            HEALTH: {
                "get": {
                    "operationId": "health",
                    "security": [],
                    "responses": {
                        "200": json_response("the service and its database answer", envelope({"$ref": "#/components/schemas/Health"})),
                        "503": json_response("the database does not answer", error_body(["UNAVAILABLE"])),
                        **transport,
                    },
                }
            },
            OPENAPI: {
                "get": {
                    "operationId": "openapi",
                    "security": [],
                    "responses": {"200": json_response("this document", {"type": "object", "required": ["openapi", "paths"]}), **transport},
                }
            },
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
            "schemas": {
                "Meta": META,
                "Health": {
                    "type": "object",
                    "required": ["healthy", "implementation", "version", "tickers", "bars"],
                    "additionalProperties": False,
                    "properties": {
                        "healthy": {"type": "boolean", "enum": [True]},
                        "implementation": {"type": "string"},
                        "version": {"type": "string"},
                        "tickers": {"type": "integer"},
                        "bars": {"type": "integer"},
                    },
                },
            },
        },
    }


# ---------------------------------------------------------------- HTTP


def iso_now(now):
    return datetime.fromtimestamp(now, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Handler(BaseHTTPRequestHandler):
    server_version = "graph-stats-py/" + VERSION
    error_codes = {414: "URI_TOO_LONG", 431: "HEADERS_TOO_LARGE"}

    def log_message(self, fmt, *args):
        if self.server.app.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def send_json(self, status, body, headers=None):
        raw = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(raw)

    def fail(self, status, code, message, headers=None, now=None):
        errors = [{"code": code, "message": m} for m in (message if isinstance(message, list) else [message])]
        meta = {"generated_at": iso_now(now if now is not None else self.server.app.now())}
        self.send_json(status, {"success": False, "errors": errors, "data": None, "meta": meta}, headers)

    def send_error(self, code, message=None, explain=None):
        """http.server's own refusals (request line or headers too long, bad request line) in the envelope."""
        self.close_connection = True
        if code == 501:  # a method with no do_* handler
            return self.not_allowed()
        default = "the request line is longer than 65536 bytes" if code == 414 else "the request could not be read"
        self.fail(code, self.error_codes.get(code, "BAD_REQUEST"), message or default)

    def do_GET(self):
        app = self.server.app
        now = app.now()
        url = urlsplit(self.path)
        try:
            if url.path == HEALTH:
                try:
                    app.meter.ping()
                except sqlite3.Error as e:
                    return self.fail(503, "UNAVAILABLE", f"the database does not answer: {e}", now=now)
                data = {"healthy": True, "implementation": "graph-stats-py", "version": VERSION, "tickers": len(TICKERS), "bars": N_BARS}
                return self.send_json(200, {"success": True, "data": data, "meta": {"generated_at": iso_now(now)}})
            if url.path == OPENAPI and app.openapi is not None:
                return self.send_json(200, app.openapi)
            if url.path == DEMO:
                try:
                    data = chart(parse_query(url.query, app.require_interval))
                except Invalid as e:
                    return self.fail(422, "INVALID_PARAMETER", e.problems, now=now)
                return self.send_json(200, {"success": True, "data": data, "meta": {"generated_at": iso_now(now), "demo": True}})
            if url.path == LIVE:
                return self.live(url.query, now)
            return self.fail(404, "NOT_FOUND", f"no route {url.path[:100]}", now=now)
        except Exception as e:  # noqa: BLE001 - the envelope for anything unexpected
            sys.stderr.write(f"internal error: {e!r}\n")
            return self.fail(500, "INTERNAL_ERROR", "unexpected failure", now=now)

    def live(self, query, now):
        app = self.server.app
        try:
            user = verify_token(self.headers.get("Authorization"), app.secret, now)
        except TokenError as e:
            return self.fail(401, e.code, e.message, now=now)
        code, message, headers = app.meter.admit(user, now)
        if code:
            return self.fail(429, code, message, headers, now=now)
        try:
            data = chart(parse_query(query, app.require_interval))
        except Invalid as e:
            return self.fail(422, "INVALID_PARAMETER", e.problems, headers, now=now)
        self.send_json(200, {"success": True, "data": data, "meta": {"generated_at": iso_now(now)}}, headers)

    def not_allowed(self):
        self.fail(405, "METHOD_NOT_ALLOWED", f"{self.command} is not served; use GET", {"Allow": "GET"})

    do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = not_allowed


class App:
    def __init__(self, args):
        self.secret, self.verbose = args.secret, args.verbose
        self.clock_file = args.clock_offset_file
        self.require_interval = args.require_interval
        self.meter = Meter(args.db, args.per_minute, args.per_day, args.prefer_rate_limited)
        self.openapi = None if args.no_openapi else openapi_document(args.require_interval)

    def now(self):
        """Real time, plus the offset in seconds read from --clock-offset-file when given (tests only)."""
        offset = 0.0
        if self.clock_file:
            try:
                with open(self.clock_file) as f:
                    offset = float(f.read().strip() or 0)
            except (OSError, ValueError):
                offset = 0.0
        return time.time() + offset


def main(argv=None):
    env = os.environ.get
    p = argparse.ArgumentParser(description="graph-stats second implementation (Python standard library)")
    p.add_argument("--host", default=env("GSPY_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(env("GSPY_PORT", "8081")), help="0 picks a free port")
    p.add_argument("--secret", default=env("GSPY_SECRET"), help="HS256 secret (or GSPY_SECRET)")
    p.add_argument("--per-minute", type=int, default=int(env("GSPY_PER_MINUTE", "1")))
    p.add_argument("--per-day", type=int, default=int(env("GSPY_PER_DAY", "30")))
    p.add_argument("--db", default=env("GSPY_DB", ":memory:"), help="sqlite file (default: in memory)")
    p.add_argument("--clock-offset-file", default=env("GSPY_CLOCK_OFFSET_FILE"), help="file holding seconds to add to the clock")
    p.add_argument("--require-interval", action="store_true", help="variant: interval has no default, leaving it out is a 422")
    p.add_argument("--prefer-rate-limited", action="store_true", help="variant: RATE_LIMITED when both windows are used up")
    p.add_argument("--no-openapi", action="store_true", help="variant: serve no /openapi.json (404)")
    p.add_argument("--verbose", action="store_true", help="log requests to stderr")
    args = p.parse_args(argv)
    if not args.secret:
        p.error("--secret (or GSPY_SECRET) is required")
    if args.per_minute < 1 or args.per_day < 1:
        p.error("--per-minute and --per-day must be at least 1")

    ThreadingHTTPServer.request_queue_size = 128
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.app = App(args)

    def stop(_signum, _frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    host, port = server.server_address[:2]
    print(f"listening on http://{host}:{port}", flush=True)
    server.serve_forever(poll_interval=0.2)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
