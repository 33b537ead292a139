"""The HTTP server's limits, in one place: what ``shopfloor serve`` passes to uvicorn (docs/security.md).

uvicorn's ``httptools`` parser has no limit on the size of a request head; ``h11`` bounds only a head still
incomplete (``h11_max_incomplete_event_size``), so a large head arriving in one read passes. Neither has a
deadline for a request head, and a fresh connection that sends nothing never times out.
:class:`LimitedH11Protocol` adds both: every head over the limit is refused with a 431, and a head must
arrive in time.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from shopfloor.logs import new_request_id
from shopfloor.settings import Settings, get_settings

PROTOCOL = "shopfloor.web.server:LimitedH11Protocol"


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that enforce ``settings``' HTTP limits (and send no ``server`` header)."""
    return {
        "http": PROTOCOL,
        "h11_max_incomplete_event_size": settings.http_max_header_bytes,
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


class LimitedH11Protocol(H11Protocol):
    """h11 with two limits on each request head: it may be at most ``h11_max_incomplete_event_size`` bytes
    (``http_max_header_bytes``), and from the connection's start, or from the first byte of a later request,
    it must arrive within ``http_header_timeout_s``, or the connection is closed.

    The timeout is read from the process's settings: server worker processes rebuild everything from the
    same ``SHOPFLOOR_*`` environment."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout_s = get_settings().http_header_timeout_s
        self._head_deadline: asyncio.TimerHandle | None = None
        self.max_head_bytes = (
            self.config.h11_max_incomplete_event_size or get_settings().http_max_header_bytes
        )
        self._head = b""  # the current request head so far, kept up to just over the limit

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the head deadline: a connection that sends nothing is closed too."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Keep the deadline while a head is incomplete; drop it once the request line and headers are in."""
        if self.conn.their_state is h11.IDLE:
            self._arm()
            self._head = (self._head + data)[: self.max_head_bytes + 4]
            if head_too_large(self._head, self.max_head_bytes):
                self._disarm()
                self.transport.write(head_refusal())
                self.transport.close()
                return
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()
            self._head = b""

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
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()
