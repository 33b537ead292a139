"""A real HTTP server on 127.0.0.1, in a thread (:mod:`tests.agent.stand_in`), that answers each request with the next step of a script.

A step is a :class:`Reply` (a status, headers and a JSON body, as a provider's server sends them, at once or
after a delay) or a
:class:`Hold` (the server keeps the request open, sending nothing, until the client hangs up or the hold
ends). The last step repeats once the script is used up. Every request's arrival time, headers and body are
kept, so a test can see from the server's side how many calls were made, how long the client paused between
them and what it sent.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.agent.stand_in import StandInHandler, StandInServer


@dataclass(frozen=True)
class Reply:
    """Answer with this status, these headers and this JSON body, after ``delay_s`` (a slow model) unless the
    client hangs up first."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass(frozen=True)
class Hold:
    """Answer nothing for ``seconds`` (then close the connection) unless the client hangs up first."""

    seconds: float = 60.0


Step = Reply | Hold


@dataclass
class Calls:
    """What the server saw: each request's path and arrival time, and when a client hung up on a hold."""

    paths: list[str] = field(default_factory=list)
    at: list[float] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)  # each request's headers, as sent
    bodies: list[bytes] = field(default_factory=list)
    hung_up: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        """Requests received so far."""
        with self.lock:
            return len(self.paths)


class ScriptServer(StandInServer):
    """``with ScriptServer([Reply(429, ...), Hold()]) as server:`` serves ``http://127.0.0.1:<port>``."""

    def __init__(self, steps: list[Step]) -> None:
        assert steps, "a script needs at least one step"
        self.steps = list(steps)
        self.calls = Calls()
        outer = self

        class Handler(StandInHandler):
            def do_POST(self) -> None:
                body = self.read_body()
                with outer.calls.lock:
                    index = len(outer.calls.paths)
                    outer.calls.paths.append(self.path)
                    outer.calls.headers.append({k.lower(): v for k, v in self.headers.items()})
                    outer.calls.bodies.append(body)
                    outer.calls.at.append(time.monotonic())
                step = outer.steps[min(index, len(outer.steps) - 1)]
                held = step.seconds if isinstance(step, Hold) else step.delay_s
                if held and self.hung_up_within(held):
                    outer.calls.hung_up.append(time.monotonic())
                    self.close_connection = True
                    return
                if isinstance(step, Hold):
                    self.close_connection = True
                    return
                self.send_json(step.status, step.body, step.headers)

        super().__init__(Handler)
