"""universes() / universe(name) against GET /v1/universes[/{name}] (unmetered), and the cache keyed
by the data version those routes' ETag names."""

import csv

import pytest

from graph_stats import Client, NotFound


def test_universes_lists_the_sample(server, user):
    name, token = user
    listed = Client(server.url, token).universes()
    sample = next(u for u in listed if u["name"] == "sample")
    assert {"name", "symbols", "intervals", "first_bar", "last_bar", "data_source", "data_version"} <= set(sample)
    assert sample["symbols"] == 50 and sample["data_source"] == "synthetic"
    assert server.usage(name)["admitted"] == 0


def test_universe_gives_each_member_s_coverage(server, user):
    one = Client(server.url, user[1]).universe("sample")
    assert one["name"] == "sample" and len(one["symbols"]) == 50
    member = one["symbols"][0]
    assert {"symbol", "name", "sector", "industry", "coverage"} <= set(member)
    assert {"first", "last", "bars", "missing"} <= set(member["coverage"]["1d"])


def test_an_unknown_universe_is_not_found_and_not_metered(server, user):
    name, token = user
    with pytest.raises(NotFound) as caught:
        Client(server.url, token).universe("nowhere")
    assert "sample" in caught.value.message and server.usage(name)["uncounted"] == 0


def test_a_new_data_version_asks_again(server, user, tmp_path):
    name, token = user
    client = Client(server.url, token, cache_dir=tmp_path / "cache")
    client.chart(asof="2025-06-30", include_graph=False)
    assert client.chart(asof="2025-06-30", include_graph=False).from_cache
    # Any import moves the data version: the cached answer is no longer the server's.
    bars = tmp_path / "NEWCO.csv"
    with bars.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timestamp", "open", "high", "low", "close", "volume"])
        for day in range(1, 29):
            w.writerow([f"2025-02-{day:02d}", 10, 13, 9, 10 + day % 3, 100])
    server.cli("import", "--universe", "py-extra", str(bars))
    again = client.chart(asof="2025-06-30", include_graph=False)
    assert not again.from_cache and server.usage(name)["admitted"] == 2


def test_a_re_run_of_the_notebook_with_its_cache_spends_no_quota(server, user, monkeypatch, tmp_path):
    from test_notebook import run

    name, token = user
    run(server, token, monkeypatch, tmp_path / "figures", tmp_path / "cache")
    first = server.usage(name)["admitted"]
    notebook = run(server, token, monkeypatch, tmp_path / "figures", tmp_path / "cache")
    assert server.usage(name)["admitted"] == first
    assert "answered from cache: [True, True]" in "".join(o.get("text", "") for o in notebook.cells[-1]["outputs"])
