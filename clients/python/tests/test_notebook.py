"""examples/sample-universe.ipynb: kept without outputs, and executed headless against the real server."""

import json
import sys

import pytest
from conftest import REPO

NOTEBOOK = REPO / "examples" / "sample-universe.ipynb"
PICTURES = {"notebook-network.png", "notebook-pagerank.png", "notebook-communities.png", "notebook-hrp.png"}


def run(server, token, monkeypatch, figures, cache):
    pytest.importorskip("nbclient", reason="the notebook needs python3-nbclient and python3-ipykernel")
    sys.path.insert(0, str(REPO / "examples"))
    from run_notebook import execute

    monkeypatch.setenv("GRAPH_STATS_URL", server.url)
    monkeypatch.setenv("GRAPH_STATS_TOKEN", token)
    return execute(NOTEBOOK, figures=str(figures), cache=str(cache))


def test_the_notebook_is_kept_without_outputs():
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)


def test_the_notebook_runs_and_draws_its_pictures(server, user, monkeypatch, tmp_path):
    name, token = user
    notebook = run(server, token, monkeypatch, tmp_path / "figures", tmp_path / "cache")
    assert {p.name for p in (tmp_path / "figures").iterdir()} == PICTURES
    errors = [o for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errors == []
    last = "".join(o.get("text", "") for o in notebook.cells[-1]["outputs"])
    assert "answered from cache: [False, False]" in last
    assert server.usage(name)["admitted"] >= 2
