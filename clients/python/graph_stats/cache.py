"""Answers kept on disk for questions whose answer cannot change on the same data version.

One JSON file per answer, named by the SHA-256 of (server, path, query, data version), written to
a temporary file and renamed so a crash never leaves half an answer behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Optional


class DiskCache:
    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory).expanduser()
        self.directory.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(base_url: str, path: str, query: str, data_version: Optional[str]) -> str:
        material = json.dumps([base_url.rstrip("/"), path, query, data_version], separators=(",", ":"))
        return hashlib.sha256(material.encode("utf-8")).hexdigest()

    def get(self, key: str) -> Optional[dict]:
        try:
            with open(self.directory / f"{key}.json", encoding="utf-8") as f:
                entry = json.load(f)
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and "body" in entry else None

    def put(self, key: str, entry: dict) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entry, f)
            os.replace(tmp, self.directory / f"{key}.json")
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
