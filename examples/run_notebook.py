"""Executes a notebook headless with nbclient (the kernel: Debian's python3), leaving the file as it is.

    GRAPH_STATS_URL=… GRAPH_STATS_TOKEN=… /usr/bin/python3 examples/run_notebook.py \\
        examples/sample-universe.ipynb --figures docs/images

`--figures DIR` keeps the notebook's pictures there (docs/images is what the README shows);
`--cache DIR` is the client's cache_dir. Exit 1 when a cell fails. The tests import `execute`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: str | Path, *, figures: str | None = None, cache: str | None = None, timeout: int = 300):
    """The executed notebook (a copy in memory); the environment carries the settings to the kernel."""
    path = Path(path).resolve()
    saved = {k: os.environ.get(k) for k in ("GRAPH_STATS_FIGURES", "GRAPH_STATS_CACHE", "MPLBACKEND", "PYDEVD_DISABLE_FILE_VALIDATION")}
    try:
        if figures:
            os.environ["GRAPH_STATS_FIGURES"] = str(Path(figures).resolve())
        if cache:
            os.environ["GRAPH_STATS_CACHE"] = str(Path(cache).resolve())
        os.environ["MPLBACKEND"] = "Agg"
        os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
        notebook = nbformat.read(path, as_version=4)
        NotebookClient(notebook, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        return notebook
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook")
    parser.add_argument("--figures")
    parser.add_argument("--cache")
    args = parser.parse_args(argv)
    try:
        notebook = execute(args.notebook, figures=args.figures, cache=args.cache)
    except Exception as err:  # a failing cell: say which, without the kernel's traceback noise
        print(f"{args.notebook}: {type(err).__name__}: {str(err)[-2000:]}", file=sys.stderr)
        return 1
    last = notebook.cells[-1].get("outputs", [])
    print("".join(o.get("text", "") for o in last).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
