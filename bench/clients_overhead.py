"""The Python client's cost per call beside a bare urllib GET of the same URL (bench/clients.bench.ts runs it).

    /usr/bin/python3 bench/clients_overhead.py URL TOKEN ROUNDS CALLS   → one JSON line

Rounds alternate the two, so both see the same machine; each figure is the median over rounds of
the mean per call in a round, in microseconds. Both decode the JSON: the client also builds its
Result (and, in `frame`, the tidy pandas frame, reported apart).
"""

import json
import statistics
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))

from graph_stats import Client  # noqa: E402

QUERY = {"asof": "2025-09-30", "metrics": ["pagerank"], "include_graph": False}
QUERY_STRING = "asof=2025-09-30&metrics=pagerank&include_graph=false"


def main(url, token, rounds, calls):
    client = Client(url, token)
    full = f"{url}/v1/graph-stats/chart?{QUERY_STRING}"

    def bare():
        request = urllib.request.Request(full, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    def with_client():
        return client.chart(**QUERY)

    def with_frame():
        return client.chart(**QUERY).to_pandas()

    runs = {"bare urllib": bare, "Client.chart": with_client, "Client.chart().to_pandas()": with_frame}
    for fn in runs.values():  # warm: imports, the server's result cache
        fn()
    per_call = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            start = time.perf_counter()
            for _ in range(calls):
                fn()
            per_call[name].append((time.perf_counter() - start) / calls * 1e6)
    print(json.dumps({name: statistics.median(xs) for name, xs in per_call.items()}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
