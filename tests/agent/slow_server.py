"""A real HTTP server on 127.0.0.1, in a thread, that is slow to answer on purpose.

It accepts each request, reads it whole, notes it, and then either answers at once (``delay_s=0``) with the
JSON body the test gave it, or holds the answer for ``delay_s`` seconds while watching the socket: when the
client closes the connection first, the moment is recorded. Tests use it to see, from the server's side,
whether a model call was really cancelled and whether connections are reused and closed.
"""

from __future__ import annotations

import json
import select
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Seen:
    """What the server saw, shared with the test."""

    requests: list[str] = field(default_factory=list)
    connections: int = 0
    closed_early: list[float] = field(default_factory=list)  # when a client hung up on a held answer
    closed_idle: list[float] = field(default_factory=list)  # when a kept-alive idle connection was closed
    got_request: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class SlowServer:
    """``with SlowServer(delay_s=10, body=...) as server:`` serves ``http://127.0.0.1:<port>``."""

    def __init__(self, delay_s: float = 0.0, body: dict[str, Any] | None = None) -> None:
        self.delay_s = delay_s
        self.body = body or {}
        self.seen = Seen()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, so connection reuse is visible

            def setup(self) -> None:
                super().setup()
                with outer.seen.lock:
                    outer.seen.connections += 1

            def log_message(self, *_args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                with outer.seen.lock:
                    outer.seen.requests.append(self.path)
                outer.seen.got_request.set()
                if outer.delay_s and self._client_hung_up_within(outer.delay_s):
                    outer.seen.closed_early.append(time.monotonic())
                    self.close_connection = True
                    return
                payload = json.dumps(outer.body).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()

            def handle(self) -> None:
                super().handle()
                # The client (or the server's own close) ended the keep-alive connection.
                outer.seen.closed_idle.append(time.monotonic())

            def _client_hung_up_within(self, seconds: float) -> bool:
                ready, _, _ = select.select([self.connection], [], [], seconds)
                if not ready:
                    return False
                try:
                    return self.connection.recv(1, 0) == b""
                except OSError:
                    return True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The server's base URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> SlowServer:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
