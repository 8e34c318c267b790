"""graph_stats/_params.py is what tools/generate_params.py makes of docs/openapi.json today."""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOOL = HERE.parent / "tools" / "generate_params.py"
sys.path.insert(0, str(TOOL.parent))

import generate_params  # noqa: E402

from graph_stats import CHART_PARAMS, DEMO_PARAMS  # noqa: E402


def test_module_matches_the_document():
    done = subprocess.run([sys.executable, str(TOOL), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_new_parameter_in_the_document_makes_it_stale():
    document = json.loads(generate_params.DOCUMENT.read_text())
    before = generate_params.render(document)
    document["paths"]["/v1/graph-stats/chart"]["get"]["parameters"].append({"name": "new_one", "in": "query"})
    after = generate_params.render(document)
    assert before != after and "'new_one'," in after


def test_every_documented_query_parameter_is_known():
    document = json.loads(generate_params.DOCUMENT.read_text())
    assert list(CHART_PARAMS) == generate_params.query_names(document, "/v1/graph-stats/chart")
    assert list(DEMO_PARAMS) == generate_params.query_names(document, "/v1/demo/chart")
    assert {"asof", "metrics", "universe", "include_graph"} <= set(CHART_PARAMS)


def test_the_running_server_serves_the_same_parameters(server):
    import urllib.request

    with urllib.request.urlopen(f"{server.url}/openapi.json") as response:
        served = json.load(response)
    assert generate_params.query_names(served, "/v1/graph-stats/chart") == list(CHART_PARAMS)
