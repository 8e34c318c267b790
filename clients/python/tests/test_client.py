"""Calls, parameters as Python values, and the result object, against the real server."""

import json
import socket
from datetime import date

import pytest

from graph_stats import CHART_PARAMS, Client, Disconnected, RateLimit, Result


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_url_and_token_default_to_the_environment(server, user, monkeypatch):
    monkeypatch.setenv("GRAPH_STATS_URL", server.url)
    monkeypatch.setenv("GRAPH_STATS_TOKEN", user[1])
    result = Client().chart(periods=1, include_graph=False)
    assert result.data["type"] == "snapshot"
    monkeypatch.delenv("GRAPH_STATS_URL")
    with pytest.raises(ValueError, match="GRAPH_STATS_URL"):
        Client()


def test_a_misspelt_parameter_is_a_type_error_before_any_request(server, user):
    # Nothing listens on this port: had the client sent anything, it would be Disconnected.
    client = Client(f"http://127.0.0.1:{closed_port()}", user[1])
    with pytest.raises(TypeError, match=r"'lookbak' \(did you mean 'lookback'\?\)"):
        client.chart(lookbak=30)
    with pytest.raises(TypeError, match="'asof'; it takes: periods$"):
        client.demo(periods=2, asof="2025-01-01")
    assert client.requests_sent == 0
    with pytest.raises(Disconnected):
        client.chart(lookback=30)


def test_python_values_become_the_interface_s_parameters(server, user):
    client = Client(server.url, user[1])
    result = client.chart(
        metrics=["pagerank", "betweenness_centrality"], asof=date(2025, 6, 30), include_graph=False, lookback=40, corr_threshold=0.5
    )
    params = result.meta["params"]
    assert params["metrics"] == ["pagerank", "betweenness_centrality"]
    assert params["asof"] == "2025-06-30" and params["include_graph"] is False and params["lookback"] == 40
    assert result.data["asof_date"].startswith("2025-06-30")


def test_rate_limit_holds_the_five_headers(server, user):
    result = Client(server.url, user[1]).chart(include_graph=False)
    h = {k.lower(): v for k, v in result.headers.items()}
    assert result.rate_limit == RateLimit(
        int(h["x-ratelimit-limit"]),
        int(h["x-ratelimit-remaining"]),
        int(h["x-ratelimit-daily-limit"]),
        int(h["x-ratelimit-daily-remaining"]),
        int(h["x-ratelimit-reset"]),
    )
    assert result.rate_limit.daily_remaining == result.rate_limit.daily_limit - 1
    assert Client(server.url).demo().rate_limit is None


def test_snapshot_to_pandas_is_one_row_per_stock_and_metric(server, user):
    result = Client(server.url, user[1]).chart(metrics=["pagerank", "degree_strength"], weights="hrp", clusters=4)
    frame = result.to_pandas()
    stocks = result.data["stocks"]
    assert list(frame.columns) == ["date", "symbol", "metric", "value", "community", "cluster", "weight"]
    assert len(frame) == 2 * len(stocks)
    first = stocks[0]
    row = frame[(frame.symbol == first["symbol"]) & (frame.metric == "degree_strength")].iloc[0]
    assert row.value == first["degree_strength"] and row.community == first["community"]
    assert row.cluster == first["cluster"] and row.weight == first["weight"]
    assert str(frame.date.iloc[0])[:10] == result.data["asof_date"][:10]


def test_rolling_to_pandas_is_one_row_per_point_and_metric(server, user):
    result = Client(server.url, user[1]).chart(periods=4, metrics=["pagerank"], include_graph=True)
    frame = result.to_pandas()
    stocks = result.data["stocks"]
    assert len(frame) == sum(len(s["points"]) for s in stocks)
    assert frame.date.nunique() == 4
    point = stocks[1]["points"][0]
    row = frame[(frame.symbol == stocks[1]["symbol"]) & (frame.date == frame.date.min())].iloc[0]
    assert row.value == point["pagerank"] and row.community == point["community"]


def test_edges_is_the_graph_s_edge_list(server, user):
    result = Client(server.url, user[1]).chart(graph_method="knn", knn_k=3)
    edges = result.edges()
    graph = result.data["graph"]
    assert len(edges) == graph["edges"] == len(graph["edge_list"])
    assert list(edges.columns) == ["date", "source", "target", "weight", "corr"]
    assert edges.iloc[0][["source", "target", "weight", "corr"]].tolist() == list(graph["edge_list"][0].values())
    every = Client(server.url, user[1]).chart(periods=3, include_graph="all").edges()
    assert every.date.nunique() == 3


def test_fields_other_servers_add_become_columns(server, user):
    # The answer as the research and metadata fields would extend it: sector and name per stock,
    # p05/p95 bands per metric, reliability per edge. The frames carry them without knowing them.
    real = Client(server.url, user[1]).chart(metrics=["pagerank"], asof="2025-09-30")
    body = json.loads(real.text)
    for stock in body["data"]["stocks"]:
        stock.update(sector="Banks", name=stock["symbol"].title(), pagerank_p05=0.01, pagerank_p95=0.02, community_stability=0.9)
    for edge in body["data"]["graph"]["edge_list"]:
        edge["reliability"] = 0.75
    extended = Result.from_body(json.dumps(body), real.headers)
    frame = extended.to_pandas()
    assert list(frame.columns)[:8] == ["date", "symbol", "metric", "value", "community", "sector", "name", "community_stability"]
    assert set(frame.columns) >= {"p05", "p95"} and frame.p95.eq(0.02).all() and frame.sector.eq("Banks").all()
    assert extended.edges().reliability.eq(0.75).all()


def test_csv_format_reads_into_the_same_long_rows(server, user):
    result = Client(server.url, user[1]).chart(format="csv", metrics=["pagerank"], include_graph=False)
    frame = result.to_pandas()
    assert result.data is None and {"date", "symbol", "metric", "value"} <= set(frame.columns)
    assert set(frame.dropna(subset=["symbol"]).metric) == {"pagerank"}


def test_plots_draw_the_network_and_a_metric(server, user):
    import matplotlib

    matplotlib.use("Agg")
    client = Client(server.url, user[1])
    snapshot = client.chart(metrics=["pagerank"])
    ax = snapshot.plot_network()
    assert len(ax.lines) == snapshot.data["graph"]["edges"] and ax.collections[0].get_offsets().shape[0] == 50
    rolling = client.chart(periods=5, metrics=["pagerank"], include_graph=False)
    ax = rolling.plot_metric("pagerank", ["ALPHABANK", "CODEWAVE", "SUNVOLT"])
    assert sorted(line.get_label() for line in ax.get_lines()) == ["ALPHABANK", "CODEWAVE", "SUNVOLT"]
    with pytest.raises(ValueError, match="no 'eigenvector_centrality'"):
        rolling.plot_metric("eigenvector_centrality")


def test_linkage_is_scipy_s_matrix(server, user):
    result = Client(server.url, user[1]).chart(hierarchy="average", include_graph=False)
    z, leaves = result.linkage()
    tree = result.data["hierarchy"]
    assert z.shape == (len(leaves) - 1, 4) and leaves == tree["leaves"]
    assert z[-1, 3] == len(leaves)


def test_demo_and_health_need_no_token(server):
    client = Client(server.url)
    assert client.health().data["status"] == "ok"
    assert client.demo(periods=3).data["type"] == "rolling"


def test_every_documented_parameter_name_is_accepted_by_the_server(server, user):
    # A deliberately bad value for each name: the server must object to the value, never to the name.
    from graph_stats import BadRequest

    client = Client(server.url, user[1])
    with pytest.raises(BadRequest) as caught:
        client.chart(**{name: "\u00a7" for name in CHART_PARAMS})
    messages = " ".join(e["message"] for e in caught.value.errors)
    assert "unknown parameter" not in messages


def test_values_are_encoded_as_the_interface_spells_them():
    from graph_stats.query import encode_query, fixed_question

    assert encode_query({"symbols": ["M&M", "TCS"], "asof": date(2025, 9, 30), "include_graph": False, "step": None}) == (
        "symbols=M%26M,TCS&asof=2025-09-30&include_graph=false"
    )
    assert fixed_question({"asof": "2025-09-30"}) and fixed_question({"start": "2025-01-01", "end": "2025-02-01"})
    assert not fixed_question({"start": "2025-01-01"}) and not fixed_question({"asof": None, "periods": 5})
    with pytest.raises(TypeError, match="parameter 'lookback': cannot send a dict"):
        encode_query({"lookback": {}})


def test_signal_or_noise_fields_are_frames_and_dicts(server, user):
    client = Client(server.url, user[1])
    snap = client.chart(asof="2025-09-30", metrics=["pagerank"], bootstrap=10, seed=3, spectrum=True, include_corr=True, denoise="mp")
    graph = snap.data["graph"]
    spectrum = snap.spectrum()
    assert spectrum == {"date": snap.data["asof_date"], **graph["spectrum"]}
    assert set(spectrum) == {"date", "eigenvalues", "lambda_plus", "n_above", "absorption_ratio"}
    assert snap.spectrum(date(2025, 9, 30)) == spectrum == snap.spectra()[-1]

    served = graph["corr_matrix"]
    matrix = snap.corr_matrix()
    assert list(matrix.index) == list(matrix.columns) == served["symbols"] == [s["symbol"] for s in snap.data["stocks"]]
    a, b = served["symbols"][:2]
    assert matrix.loc[a, b] == served["matrix"][0][1] == matrix.loc[b, a] and matrix.loc[a, a] == 1
    assert snap.corr_matrix(frame=False) == (served["symbols"], served["matrix"])

    edges = snap.edges()
    assert list(edges.columns) == ["date", "source", "target", "weight", "corr", "reliability"]
    assert edges.reliability.tolist() == [e["reliability"] for e in graph["edge_list"]]
    assert edges.reliability.between(0, 1).all()

    frame = snap.to_pandas()
    first = snap.data["stocks"][0]
    row = frame[frame.symbol == first["symbol"]].iloc[0]
    assert (row.p05, row.p95) == (first["pagerank_p05"], first["pagerank_p95"]) and row.p05 <= row.p95
    assert snap.graph_stats().community_stability.iloc[0] == graph["community_stability"]


def test_a_rolling_answer_has_a_spectrum_and_matrix_per_as_of(server, user):
    client = Client(server.url, user[1])
    rolling = client.chart(periods=3, metrics=["pagerank"], bootstrap=5, spectrum=True, include_corr=True, include_graph="all")
    dates = rolling.data["asof_dates"]
    assert [s["date"] for s in rolling.spectra()] == dates
    oldest = rolling.data["graphs"][0]
    assert rolling.spectrum(date.fromisoformat(dates[0][:10]))["eigenvalues"] == oldest["spectrum"]["eigenvalues"]
    assert rolling.corr_matrix(dates[0][:10], frame=False) == (oldest["corr_matrix"]["symbols"], oldest["corr_matrix"]["matrix"])
    assert rolling.corr_matrix().values.tolist() == rolling.data["graphs"][-1]["corr_matrix"]["matrix"]
    stability = rolling.graph_stats().community_stability
    assert len(stability) == 3 and stability.between(-1, 1).all()
    with pytest.raises(ValueError, match="no spectrum at 2001-01-01 in this answer"):
        rolling.spectrum("2001-01-01")
    plain = client.chart(include_graph=False)
    with pytest.raises(ValueError, match="no spectrum in this answer: ask with spectrum=True"):
        plain.spectrum()
    with pytest.raises(ValueError, match="no corr_matrix in this answer: ask with include_corr=True"):
        plain.corr_matrix()
