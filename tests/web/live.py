"""A real uvicorn server on a loopback socket, in a thread, for tests that need real connections."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from starlette.types import ASGIApp


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# How long a `shopfloor serve` process may take to answer: on a loaded two-core machine both apps' imports
# have taken over a minute (the browser harness, tests/e2e/conftest.py, waits as long).
SERVER_START_S = 120


def serve_command(port: int, *args: str) -> list[str]:
    """The installed ``shopfloor serve`` command (beside this Python) on ``port``, with ``args`` after it."""
    return [str(Path(sys.executable).with_name("shopfloor")), "serve", "--port", str(port), *args]


def wait_until_up(server: subprocess.Popen[bytes], port: int, within: float = SERVER_START_S) -> None:
    """Wait until ``server`` answers ``/healthz`` with 200 on ``port``; fail at once if it exits."""
    deadline = time.monotonic() + within
    while True:
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return
        except httpx2.TransportError:
            pass
        assert server.poll() is None, f"the server exited with {server.returncode}"
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)


def serve_fixture(
    settings: Mapping[str, str], prepare_store: Callable[[Path], None] | None = None
) -> Callable[..., Iterator[int]]:
    """A module-scoped ``port`` fixture: a ``shopfloor serve`` process on a free port, with its own var
    folder, workshop store (a file ``prepare_store`` may fill first) and no shifts data, run with these
    ``SHOPFLOOR_*`` ``settings`` in its environment, and stopped after the module's tests."""

    @pytest.fixture(scope="module")
    def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
        tmp = tmp_path_factory.mktemp("serve")
        if prepare_store is not None:
            prepare_store(tmp / "workshop.db")
        chosen = free_port()
        env = {
            **os.environ,
            "SHOPFLOOR_VAR_DIR": str(tmp / "var"),
            "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{tmp / 'workshop.db'}",
            "SHOPFLOOR_SHIFTS_DB": str(tmp / "none.duckdb"),
            **settings,
        }
        server = subprocess.Popen(
            serve_command(chosen), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_until_up(server, chosen)
            yield chosen
        finally:
            server.terminate()
            server.wait(timeout=30)

    return port


def connect(port: int) -> socket.socket:
    """A plain socket connected to 127.0.0.1 on ``port``."""
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def healthz_request(extra: str = "") -> bytes:
    """An HTTP/1.1 ``GET /healthz`` head, with ``extra`` header lines (each ending in CRLF) before its end."""
    return f"GET /healthz HTTP/1.1\r\nHost: t\r\n{extra}\r\n".encode()


@contextmanager
def serving(app: ASGIApp, **config: Any) -> Iterator[int]:
    """Serve ``app`` on 127.0.0.1 until the block ends; yields the port."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response (with a Content-Length body) read from ``sock``: status, headers, body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"connection closed after {data!r}")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("connection closed inside the body")
        rest += chunk
    return status, headers, rest[:length]


def closed_by_peer(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` (EOF or reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while True:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
