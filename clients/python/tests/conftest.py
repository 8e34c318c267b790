"""The real server for the client's tests: the compiled binary on a temporary database.

The binary is $GRAPH_STATS_BIN (python-client.test.ts sets it to the build of these sources),
else the repository's dist/graph-stats. Tokens and limits are set with its own CLI, as an
operator would; an expired token is signed here with the server's secret (HS256).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

REPO = HERE.parents[2]
SECRET = "python-client-test-secret-0123456789"


def binary() -> str:
    given = os.environ.get("GRAPH_STATS_BIN")
    path = Path(given) if given else REPO / "dist" / "graph-stats"
    if not path.exists():
        pytest.skip(f"no server binary at {path}: run `npm run build` (npm test builds it and sets GRAPH_STATS_BIN)")
    return str(path)


class Server:
    """A running `graph-stats serve` and its CLI on the same database."""

    def __init__(self, tmp: Path, *extra: str) -> None:
        self.bin = binary()
        self.db = str(tmp / "graph-stats.sqlite")
        self.env = {**os.environ, "GRAPH_STATS_JWT_SECRET": SECRET}
        args = [self.bin, "serve", "--host", "127.0.0.1", "--port", "0", "--db", self.db]
        args += ["--rate-per-minute", "10000", "--rate-per-day", "100000", *extra]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env, cwd=tmp, text=True)
        self.logs: list = []
        port = None
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.logs.append(line)
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("msg") == "listening":
                port = entry["port"]
                break
        if port is None:
            raise RuntimeError(f"graph-stats did not start (exit {self.proc.wait()}): {self.proc.stderr.read()}")  # type: ignore[union-attr]
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.logs.append(line)

    def cli(self, *args: str) -> str:
        done = subprocess.run([self.bin, *args, "--db", self.db], env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"graph-stats {' '.join(args)}: exit {done.returncode}: {done.stderr}")
        return done.stdout

    def token(self, user: str) -> str:
        return json.loads(self.cli("token", "create", "--user", user, "--json"))[0]["token"]

    def limits(self, user: str, per_minute: int, per_day: int) -> None:
        self.cli("user", "limits", user, "--per-minute", str(per_minute), "--per-day", str(per_day))

    def usage(self, user: str) -> dict:
        """Today's admitted / refused / uncounted requests of a user (zeros when none)."""
        rows = json.loads(self.cli("usage", "--user", user, "--json"))
        today = time.strftime("%Y-%m-%d", time.gmtime())
        for row in rows:
            if row["day"] == today:
                return {k: row[k] for k in ("admitted", "refused", "uncounted")}
        return {"admitted": 0, "refused": 0, "uncounted": 0}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def sign(claims: dict, secret: str = SECRET) -> str:
    """An HS256 JWT, as the server mints them."""

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps(claims).encode())
    mac = hmac.new(secret.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64(mac)}"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    # A short statement timeout: a held write lock becomes the 503 in a fifth of a second.
    s = Server(tmp_path_factory.mktemp("server"), "--db-statement-timeout", "200")
    yield s
    s.stop()


_users = iter(range(10**6))


@pytest.fixture
def user(server):
    """A fresh user with a token: (name, token)."""
    name = f"py-{os.getpid()}-{next(_users)}"
    return name, server.token(name)
