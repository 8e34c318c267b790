"""cache_dir: a question that cannot change is asked once; everything else is always asked."""

from graph_stats import Client


def spent(server, name):
    return server.usage(name)["admitted"]


def test_an_explicit_asof_is_asked_once_even_by_a_new_client(server, user, tmp_path):
    name, token = user
    first = Client(server.url, token, cache_dir=tmp_path)
    a = first.chart(asof="2025-06-30", metrics=["pagerank"])
    b = first.chart(asof="2025-06-30", metrics=["pagerank"])
    # A re-run notebook: a new client on the same folder.
    again = Client(server.url, token, cache_dir=tmp_path).chart(asof="2025-06-30", metrics=["pagerank"])
    assert spent(server, name) == 1
    assert not a.from_cache and b.from_cache and again.from_cache
    assert b.data == a.data and again.to_pandas().equals(a.to_pandas())
    assert b.rate_limit is None and a.rate_limit is not None


def test_start_and_end_are_cached_and_refresh_asks_again(server, user, tmp_path):
    name, token = user
    client = Client(server.url, token, cache_dir=tmp_path)
    client.chart(start="2025-09-01", end="2025-09-30", include_graph=False)
    client.chart(start="2025-09-01", end="2025-09-30", include_graph=False)
    assert spent(server, name) == 1
    fresh = client.chart(start="2025-09-01", end="2025-09-30", include_graph=False, refresh=True)
    assert not fresh.from_cache and spent(server, name) == 2
    assert client.chart(start="2025-09-01", end="2025-09-30", include_graph=False).from_cache


def test_a_question_about_the_latest_bar_is_always_asked(server, user, tmp_path):
    name, token = user
    client = Client(server.url, token, cache_dir=tmp_path)
    client.chart(periods=2, include_graph=False)
    client.chart(periods=2, include_graph=False)
    client.chart(lookback=30, include_graph=False)
    assert spent(server, name) == 3 and not list(tmp_path.iterdir())


def test_other_parameters_make_another_question(server, user, tmp_path):
    name, token = user
    client = Client(server.url, token, cache_dir=tmp_path)
    client.chart(asof="2025-06-30", metrics=["pagerank"])
    client.chart(asof="2025-06-30", metrics=["degree_strength"])
    client.chart(asof="2025-06-27", metrics=["pagerank"])
    assert spent(server, name) == 3


def test_failures_are_not_kept(server, user, tmp_path):
    from graph_stats import BadRequest
    import pytest

    client = Client(server.url, user[1], cache_dir=tmp_path)
    for _ in range(2):
        with pytest.raises(BadRequest):
            client.chart(asof="2025-06-30", lookback=5000)
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".json"]
