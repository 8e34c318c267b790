"""The client against another implementation of the interface (conformance/second-implementation/,
Python): other parameter names, 422 for bad values, other 401 codes, an anchored minute window, no
meta.diagnostics. Only what the interface binds is relied on: the envelope, errors[0].code,
Retry-After, the five X-RateLimit-* headers and the expired-token 401."""

import subprocess
import sys
import time

import pytest
from conftest import REPO, sign

from graph_stats import BadRequest, Client, QuotaExceeded, RateLimited, TokenExpired, Unauthorized

SERVER = REPO / "conformance" / "second-implementation" / "server.py"
SECRET = "second-implementation-secret-0123456789"


class Other:
    def __init__(self, tmp, per_minute, per_day):
        self.clock = tmp / "clock-offset"
        self.clock.write_text("0")
        args = [sys.executable, str(SERVER), "--port", "0", "--secret", SECRET, "--per-minute", str(per_minute), "--per-day", str(per_day)]
        args += ["--db", str(tmp / "meter.sqlite"), "--clock-offset-file", str(self.clock)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("listening on "), self.proc.stderr.read()
        self.url = line.split()[-1]

    def advance(self, seconds):
        """Moves the server's clock on (the file is re-read on every request)."""
        self.clock.write_text(str(float(self.clock.read_text()) + seconds))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def other(tmp_path):
    server = Other(tmp_path, per_minute=1, per_day=3)
    yield server
    server.stop()


def token(sub="quant", exp_in=3600):
    now = int(time.time())
    return sign({"sub": sub, "iat": now, "exp": now + exp_in}, secret=SECRET)


def test_its_own_parameter_names_are_read_from_its_document(other):
    with pytest.raises(TypeError, match="'measures'"):
        Client(other.url, token()).chart(measures=["degree"])  # this graph-stats's names: refused before sending
    client = Client(other.url, token(), parameters="server")
    with pytest.raises(TypeError, match=r"'measure' \(did you mean 'measures'\?\)"):
        client.chart(measure=["degree"])
    result = client.chart(measures=["degree", "strength"], tickers=["ALFA", "BRVO", "CHRL"], lookback=30)
    frame = result.to_pandas()
    assert len(frame) == 3 * 2 and set(frame.metric) == {"degree", "strength"} and set(frame.symbol) == {"ALFA", "BRVO", "CHRL"}
    stock = result.data["stocks"][0]
    assert frame[(frame.symbol == stock["ticker"]) & (frame.metric == "strength")].value.iloc[0] == stock["measures"]["strength"]
    assert result.rate_limit.limit == 1 and result.rate_limit.daily_remaining == 2
    assert "diagnostics" not in result.meta


def test_a_series_becomes_one_row_per_date(other):
    result = Client(other.url, token(), parameters="server").chart(periods=3, measures=["eigenvector"], tickers=["ALFA", "BRVO"])
    frame = result.to_pandas()
    assert len(frame) == 2 * 3 and frame.date.nunique() == 3


def test_its_422_is_a_bad_request_listing_every_problem(other):
    with pytest.raises(BadRequest) as caught:
        Client(other.url, token(), parameters="server").chart(lookback=1, periods=99)
    assert caught.value.status == 422 and len(caught.value.errors) == 2


def test_its_expired_token_is_token_expired_and_its_other_401s_unauthorized(other):
    with pytest.raises(TokenExpired):
        Client(other.url, token(exp_in=-60)).chart()
    with pytest.raises(Unauthorized) as caught:
        Client(other.url, "not-a-jwt").chart()
    assert not isinstance(caught.value, TokenExpired) and caught.value.code == "INVALID_TOKEN"


def test_its_rate_limit_is_waited_out_and_its_quota_never_retried(other):
    waits = []

    def sleep(seconds):  # the client waits: the server's clock moves on by as much
        waits.append(seconds)
        other.advance(seconds)

    client = Client(other.url, token(), parameters="server")
    client._sleep = sleep
    client.chart()
    assert client.chart().data["stocks"] and len(waits) == 1  # RATE_LIMITED, waited out, admitted
    other.advance(61)
    client.chart()  # the third of three today
    other.advance(61)
    with pytest.raises(QuotaExceeded) as caught:
        client.chart()
    assert len(waits) == 1 and caught.value.retry_after > 60
    no_wait = Client(other.url, token("another"), wait=False, parameters="server")
    no_wait.chart()
    with pytest.raises(RateLimited):
        no_wait.chart()


def test_demo_and_health(other):
    client = Client(other.url)
    assert client.health().data["healthy"] is True
    assert client.demo().data["stocks"]
