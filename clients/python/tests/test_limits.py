"""Real 429s of both kinds and a real 503: what is waited out, retried once, or raised at once."""

import re
import sqlite3
from datetime import datetime, timezone

import pytest

from graph_stats import Client, QuotaExceeded, RateLimited, ServiceUnavailable


class Sleeps:
    """Stands in for time.sleep: records each wait and does `then` at that moment (an order of events)."""

    def __init__(self, then=None):
        self.waits = []
        self.then = then

    def __call__(self, seconds):
        self.waits.append(seconds)
        if self.then:
            self.then()


def client_for(server, token, sleeps, **kw):
    client = Client(server.url, token, **kw)
    client._sleep = sleeps
    return client


def test_rate_limited_without_wait_raises_with_retry_after(server, user):
    name, token = user
    server.limits(name, 1, 100)
    client = client_for(server, token, Sleeps(), wait=False)
    client.chart(include_graph=False)
    with pytest.raises(RateLimited) as caught:
        client.chart(include_graph=False)
    err = caught.value
    assert err.status == 429 and err.code == "RATE_LIMITED" and 1 <= err.retry_after <= 60
    assert err.headers["X-RateLimit-Remaining"] == "0" and re.search(rf"Retry in {int(err.retry_after)}s", err.message)
    assert client._sleep.waits == []


def test_rate_limited_is_waited_out_and_retried_once(server, user):
    name, token = user
    server.limits(name, 1, 100)
    # While the client waits, the window moves on: here by raising the user's per-minute limit.
    sleeps = Sleeps(then=lambda: server.limits(name, 2, 100))
    client = client_for(server, token, sleeps)
    client.chart(include_graph=False)
    result = client.chart(include_graph=False)
    assert result.data["type"] == "snapshot"
    assert len(sleeps.waits) == 1 and 1 <= sleeps.waits[0] <= 60
    assert server.usage(name) == {"admitted": 2, "refused": 1, "uncounted": 0}


def test_rate_limited_twice_is_raised_after_one_retry(server, user):
    name, token = user
    server.limits(name, 1, 100)
    sleeps = Sleeps()  # the window does not move: the retry is refused too
    client = client_for(server, token, sleeps)
    client.chart(include_graph=False)
    with pytest.raises(RateLimited):
        client.chart(include_graph=False)
    assert len(sleeps.waits) == 1
    assert server.usage(name) == {"admitted": 1, "refused": 2, "uncounted": 0}


def test_a_wait_longer_than_max_wait_is_raised_at_once(server, user):
    name, token = user
    server.limits(name, 1, 100)
    sleeps = Sleeps()
    client = client_for(server, token, sleeps, max_wait=0.5)
    client.chart(include_graph=False)
    with pytest.raises(RateLimited):
        client.chart(include_graph=False)
    assert sleeps.waits == [] and server.usage(name)["refused"] == 1


def test_daily_quota_is_never_retried_and_says_when_it_resets(server, user):
    name, token = user
    server.limits(name, 100, 1)
    sleeps = Sleeps()
    client = client_for(server, token, sleeps, max_wait=10**6)
    client.chart(include_graph=False)
    with pytest.raises(QuotaExceeded) as caught:
        client.chart(include_graph=False)
    err = caught.value
    assert err.code == "DAILY_QUOTA_EXCEEDED" and err.headers["X-RateLimit-Daily-Remaining"] == "0"
    assert sleeps.waits == [] and server.usage(name) == {"admitted": 1, "refused": 1, "uncounted": 0}
    stated = datetime.fromisoformat(re.search(r"Resets at (\S+Z)", err.message).group(1).replace("Z", "+00:00"))
    assert stated.tzinfo == timezone.utc and stated.time().isoformat() == "00:00:00"
    # Retry-After counts whole seconds to that midnight, so resets_at lands on it within a second.
    assert abs((err.resets_at - stated).total_seconds()) <= 1


def test_quota_when_both_limits_are_spent_is_the_quota(server, user):
    name, token = user
    server.limits(name, 1, 1)
    sleeps = Sleeps()
    client = client_for(server, token, sleeps)
    client.chart(include_graph=False)
    with pytest.raises(QuotaExceeded):
        client.chart(include_graph=False)
    assert sleeps.waits == []


class WriteLock:
    """Another connection holding SQLite's write lock on the server's database, as a long import does."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None, timeout=5)
        self.db.execute("BEGIN IMMEDIATE")

    def release(self):
        if self.db is not None:
            self.db.execute("ROLLBACK")
            self.db.close()
            self.db = None


def test_a_503_without_wait_raises_with_retry_after(server, user):
    lock = WriteLock(server.db)
    try:
        with pytest.raises(ServiceUnavailable) as caught:
            client_for(server, user[1], Sleeps(), wait=False).chart(include_graph=False)
    finally:
        lock.release()
    assert caught.value.status == 503 and caught.value.code == "SERVICE_UNAVAILABLE" and caught.value.retry_after >= 1


def test_a_503_is_waited_out_and_retried_once(server, user):
    name, token = user
    lock = WriteLock(server.db)
    sleeps = Sleeps(then=lock.release)  # the lock is let go while the client waits
    try:
        result = client_for(server, token, sleeps).chart(include_graph=False)
    finally:
        lock.release()
    assert result.data["type"] == "snapshot" and len(sleeps.waits) == 1 and sleeps.waits[0] >= 1
    assert server.usage(name)["admitted"] == 1


def test_a_503_twice_is_raised_after_one_retry(server, user):
    lock = WriteLock(server.db)
    sleeps = Sleeps()
    try:
        with pytest.raises(ServiceUnavailable):
            client_for(server, user[1], sleeps).chart(include_graph=False)
    finally:
        lock.release()
    assert len(sleeps.waits) == 1
