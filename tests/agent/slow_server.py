"""A real HTTP server on 127.0.0.1, in a thread (:mod:`tests.agent.stand_in`), that is slow to answer on purpose.

It accepts each request, reads it whole, notes it, and then either answers at once (``delay_s=0``) with the
JSON body the test gave it, or holds the answer for ``delay_s`` seconds while watching the socket: when the
client closes the connection first, the moment is recorded. Tests use it to see, from the server's side,
whether a model call was really cancelled and whether connections are reused and closed.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.agent.stand_in import StandInHandler, StandInServer


@dataclass
class Seen:
    """What the server saw, shared with the test."""

    requests: list[str] = field(default_factory=list)
    connections: int = 0
    closed_early: list[float] = field(default_factory=list)  # when a client hung up on a held answer
    closed_idle: list[float] = field(default_factory=list)  # when a kept-alive idle connection was closed
    got_request: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class SlowServer(StandInServer):
    """``with SlowServer(delay_s=10, body=...) as server:`` serves ``http://127.0.0.1:<port>``."""

    def __init__(self, delay_s: float = 0.0, body: dict[str, Any] | None = None) -> None:
        self.delay_s = delay_s
        self.body = body or {}
        self.seen = Seen()
        outer = self

        class Handler(StandInHandler):
            # HTTP/1.1 keep-alive (the base's), so connection reuse is visible.

            def setup(self) -> None:
                super().setup()
                with outer.seen.lock:
                    outer.seen.connections += 1

            def do_POST(self) -> None:
                self.read_body()
                with outer.seen.lock:
                    outer.seen.requests.append(self.path)
                outer.seen.got_request.set()
                if outer.delay_s and self.hung_up_within(outer.delay_s):
                    outer.seen.closed_early.append(time.monotonic())
                    self.close_connection = True
                    return
                self.send_json(200, outer.body)

            def handle(self) -> None:
                super().handle()
                # The client (or the server's own close) ended the keep-alive connection.
                outer.seen.closed_idle.append(time.monotonic())

        super().__init__(Handler)
