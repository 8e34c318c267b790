"""Writes graph_stats/_params.py: each route's query parameter names, read from docs/openapi.json.

Run from anywhere: ``/usr/bin/python3 clients/python/tools/generate_params.py`` (``--check`` exits 1
when the checked-in module differs, which tests/test_params_module.py also asserts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCUMENT = HERE.parents[2] / "docs" / "openapi.json"
MODULE = HERE.parent / "graph_stats" / "_params.py"

ROUTES = {"CHART": "/v1/graph-stats/chart", "DEMO": "/v1/demo/chart"}


def query_names(document: dict, path: str) -> list:
    """The query parameters of GET `path`, in the document's order ($refs resolved)."""
    operation = document["paths"][path]["get"]
    names = []
    for parameter in operation.get("parameters", []):
        if "$ref" in parameter:
            ref = parameter["$ref"].removeprefix("#/").split("/")
            parameter = document
            for part in ref:
                parameter = parameter[part]
        if parameter.get("in") == "query":
            names.append(parameter["name"])
    return names


def render(document: dict) -> str:
    lines = [
        '"""Query parameter names per route, generated from docs/openapi.json by',
        "tools/generate_params.py; do not edit (tests/test_params_module.py fails when stale).",
        '"""',
        "",
        f"OPENAPI_VERSION = {document['info']['version']!r}",
    ]
    for constant, path in ROUTES.items():
        names = query_names(document, path)
        lines.append(f"{constant}_PATH = {path!r}")
        lines.append(f"{constant}_PARAMS = (")
        lines.extend(f"    {name!r}," for name in names)
        lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv: list) -> int:
    text = render(json.loads(DOCUMENT.read_text(encoding="utf-8")))
    if "--check" in argv:
        current = MODULE.read_text(encoding="utf-8") if MODULE.exists() else ""
        if current != text:
            print(f"{MODULE} is stale: run tools/generate_params.py", file=sys.stderr)
            return 1
        return 0
    MODULE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
