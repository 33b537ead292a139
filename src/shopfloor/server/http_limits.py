"""The HTTP server's limits, in one place: what ``shopfloor serve`` passes to uvicorn (docs/security.md).

uvicorn's ``httptools`` parser has no limit on the size of a request head (``h11`` bounds only a head still
incomplete, so a large head arriving in one read passes), and neither parser has a deadline for a request
head: a fresh connection that sends nothing never times out. :class:`LimitedHttpToolsProtocol` adds both to
httptools, the faster of the two (docs/workshop-agent.md, "Benchmarks"): every head over the limit is
refused with a 431, and a head must arrive in time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from shopfloor.logs import new_request_id
from shopfloor.settings import Settings, get_settings

PROTOCOL = "shopfloor.server.http_limits:LimitedHttpToolsProtocol"


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that enforce ``settings``' HTTP limits (and send no ``server`` header)."""
    return {
        "http": PROTOCOL,
        "timeout_keep_alive": settings.http_keep_alive_s,
        "limit_concurrency": settings.http_max_concurrency,
        "server_header": False,
    }


def head_too_large(head: bytes, limit: int) -> bool:
    """Whether the request head at the start of ``head`` (up to the blank line) is longer than ``limit``."""
    end = head.find(b"\r\n\r\n")
    return len(head) > limit if end == -1 else end + 4 > limit


def head_refusal() -> bytes:
    """The raw 431 response (the error envelope, ``Connection: close``) for a request head that is too large."""
    body = json.dumps(
        {
            "error": {
                "code": "header_too_large",
                "message": "The request line and headers are too large.",
                "request_id": new_request_id(),
            }
        }
    ).encode()
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """httptools with two limits on each request head: at most ``http_max_header_bytes`` bytes, arriving
    within ``http_header_timeout_s`` of the connection's start or of the first byte of a later request, or
    the connection is closed.

    httptools buffers a header it has not finished reading without any bound, so the head is measured here,
    from the bytes received, before the parser sees them. The limits are read from the process's settings:
    server worker processes rebuild everything from the same ``SHOPFLOOR_*`` environment."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.header_timeout_s = settings.http_header_timeout_s
        self.max_head_bytes = settings.http_max_header_bytes
        self._head_deadline: asyncio.TimerHandle | None = None
        self._in_head = True  # between the end of a request (or the connection's start) and its headers
        self._head = b""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the head deadline: a connection that sends nothing is closed too."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Measure the head before the parser buffers it; refuse one over the limit with a 431."""
        if self._in_head:
            self._arm()
            self._head = (self._head + data)[: self.max_head_bytes + 4]
            if head_too_large(self._head, self.max_head_bytes):
                self._disarm()
                self.transport.write(head_refusal())
                self.transport.close()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """The head is in: no deadline, nothing more to measure until the next request."""
        self._in_head = False
        self._head = b""
        self._disarm()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The next bytes on this connection start a new head."""
        super().on_message_complete()
        self._in_head = True

    def connection_lost(self, exc: Exception | None) -> None:
        """No deadline outlives its connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_timeout_s, self._head_too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_slow(self) -> None:
        self._head_deadline = None
        if self._in_head and not self.transport.is_closing():
            self.transport.close()
