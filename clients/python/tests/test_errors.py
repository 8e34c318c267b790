"""Each failure the server answers comes out as its own class, carrying the envelope and headers."""

import socket
import threading
import time

import pytest
from conftest import sign

from graph_stats import (
    BadRequest,
    Client,
    Disconnected,
    Forbidden,
    GraphStatsError,
    NotFound,
    TokenExpired,
    Unauthorized,
)


def test_bad_request_lists_every_problem(server, user):
    with pytest.raises(BadRequest) as caught:
        Client(server.url, user[1]).chart(lookback=5000, periods=0, graph_method="star")
    err = caught.value
    assert err.status == 400 and err.code == "BAD_REQUEST" and len(err.errors) == 3
    for e in err.errors:
        assert e["message"] in err.message
    assert isinstance(err, GraphStatsError) and err.request_id == err.headers["X-Request-Id"]


def test_an_expired_token_is_token_expired_and_says_where_a_new_one_comes_from(server):
    now = int(time.time())
    token = sign({"sub": "py-expired", "iat": now - 7200, "exp": now - 3600, "iss": "graph-stats"})
    with pytest.raises(TokenExpired) as caught:
        Client(server.url, token).chart()
    err = caught.value
    assert isinstance(err, Unauthorized) and err.status == 401 and err.code == "UNAUTHORIZED"
    assert err.dashboard_url == f"{server.url}/dashboard" and f"{server.url}/dashboard" in str(err)
    assert "expired" in err.errors[0]["message"]


def test_other_bad_tokens_are_unauthorized_not_expired(server):
    now = int(time.time())
    for token in ("not-a-jwt", sign({"sub": "py-x", "exp": now + 3600}, secret="another-secret-0123456789abcdef"), None):
        with pytest.raises(Unauthorized) as caught:
            Client(server.url, token).chart()
        assert not isinstance(caught.value, TokenExpired) and caught.value.status == 401


def test_a_disabled_user_is_forbidden(server, user):
    name, token = user
    server.cli("user", "disable", name)
    with pytest.raises(Forbidden) as caught:
        Client(server.url, token).chart()
    assert caught.value.status == 403 and isinstance(caught.value, Unauthorized)


def test_an_unknown_universe_is_not_found(server, user):
    with pytest.raises(NotFound) as caught:
        Client(server.url, user[1]).chart(universe="nowhere")
    assert caught.value.code == "NOT_FOUND" and "nowhere" in caught.value.message
    assert server.usage(user[0])["admitted"] == 0


def test_a_refused_connection_is_disconnected(server, user):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(Disconnected) as caught:
        Client(f"http://127.0.0.1:{port}", user[1]).chart()
    assert isinstance(caught.value, ConnectionError)


def test_a_connection_closed_before_the_answer_is_disconnected_and_not_retried(user):
    # A peer that reads the request and hangs up without answering, as a proxy or a dying server does.
    seen = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            seen.append(conn.recv(65536))
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        client = Client(f"http://127.0.0.1:{listener.getsockname()[1]}", user[1])
        with pytest.raises(Disconnected, match="no answer"):
            client.chart()
    finally:
        listener.close()
    assert len(seen) == 1 and seen[0].startswith(b"GET /v1/graph-stats/chart HTTP/1.1")


def test_a_killed_server_is_disconnected(tmp_path, user):
    # The real server, killed (SIGKILL) between two calls of one client: its port then refuses.
    from conftest import Server

    other = Server(tmp_path)
    token = other.token("py-stopping")
    client = Client(other.url, token)
    assert client.chart(include_graph=False).data["type"] == "snapshot"
    other.proc.kill()
    other.proc.wait()
    with pytest.raises(Disconnected):
        client.chart(include_graph=False)
