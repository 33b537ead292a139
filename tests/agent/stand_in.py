"""The small HTTP stand-in the model servers of these tests share: a real server on 127.0.0.1, in a thread.

A stand-in (:mod:`tests.agent.script_server`, :mod:`tests.agent.slow_server`,
:mod:`tests.agent.chat_server`) writes its own request handler on :class:`StandInHandler`, which speaks
HTTP/1.1 (keep-alive), keeps quiet, sends JSON and watches for a client that hangs up, and hands it to
:class:`StandInServer`, which binds a free port, serves in a daemon thread and stops on leaving ``with``.
"""

from __future__ import annotations

import json
import select
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class StandInHandler(BaseHTTPRequestHandler):
    """A keep-alive, quiet request handler with the few answers a stand-in model server gives."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *_args: object) -> None:
        """Print nothing: the tests read what the server saw, not its log."""

    def read_body(self) -> bytes:
        """The request's body, read whole by its ``content-length``."""
        return self.rfile.read(int(self.headers.get("content-length") or 0))

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        """Answer ``status`` with ``payload`` as a JSON body, and these extra ``headers``."""
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def hung_up_within(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the client to close the connection; True when it did."""
        ready, _, _ = select.select([self.connection], [], [], seconds)
        if not ready:
            return False
        try:
            first: bytes = self.connection.recv(1)
        except OSError:
            return True
        return first == b""


class StandInServer:
    """Serves ``handler`` at ``http://127.0.0.1:<free port>`` while inside ``with``; :attr:`url` adds
    :attr:`url_path` (the version path an SDK is given, where there is one)."""

    url_path = ""

    def __init__(self, handler: type[StandInHandler]) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The server's base URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{self.url_path}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
