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

from uvicorn.protocols.http.flow_control import service_unavailable
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from shopfloor.logs import new_request_id
from shopfloor.settings import Settings, get_settings

PROTOCOL = "shopfloor.server.http_limits:LimitedHttpToolsProtocol"


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn options that enforce ``settings``' HTTP limits (and send no ``server`` header).

    Forwarded headers are believed only from the proxies ``SHOPFLOOR_FORWARDED_ALLOW_IPS`` names: uvicorn's
    own default trusts 127.0.0.1 (and its ``FORWARDED_ALLOW_IPS`` variable), so on a loopback server every
    client could pick the address the throttles count (docs/security.md, "Forwarded addresses")."""
    proxies = settings.forwarded_proxies()
    return {
        "http": PROTOCOL,
        "timeout_keep_alive": settings.http_keep_alive_s,
        "limit_concurrency": settings.http_max_concurrency,
        "server_header": False,
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": proxies,
    }


def envelope_response(status: str, code: str, message: str) -> bytes:
    """A raw response with the error envelope and ``Connection: close``, for answers the server gives before
    (or instead of) the app."""
    body = json.dumps({"error": {"code": code, "message": message, "request_id": new_request_id()}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


async def busy_envelope(scope: Any, receive: Any, send: Any) -> None:
    """uvicorn's answer past the concurrency limit, in the error envelope (503 ``unavailable``)."""
    body = json.dumps(
        {
            "error": {
                "code": "unavailable",
                "message": "The server is busy; try again shortly.",
                "request_id": new_request_id(),
            }
        }
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", b"1"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


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


class _HeadTooLarge(Exception):
    """Raised from a parser callback to stop httptools at a head over the limit."""


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """httptools with limits on each request: a head of at most ``http_max_header_bytes`` bytes, arriving
    within ``http_header_timeout_s`` of the connection's start or of the first byte of a later request, and a
    body arriving within ``http_body_timeout_s`` of its head, or the connection is closed.

    httptools buffers a header it has not finished reading without any bound, so the head is measured here,
    from the bytes received, before the parser sees them; and again from the parser's own callbacks, so a
    pipelined head that starts in the same read as the end of an earlier request is held to the same limit.
    uvicorn's own answers — the 503 past the concurrency limit, the 400 for a head that cannot be parsed —
    are given in the error envelope. The limits are read from the process's settings: server worker
    processes rebuild everything from the same ``SHOPFLOOR_*`` environment."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.header_timeout_s = settings.http_header_timeout_s
        self.max_head_bytes = settings.http_max_header_bytes
        self.body_timeout_s = settings.http_body_timeout_s
        self._head_deadline: asyncio.TimerHandle | None = None
        self._body_deadline: asyncio.TimerHandle | None = None
        self._parsed_head = 0  # bytes of the current head the parser has handed over
        self._head_over = False
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

    def on_message_begin(self) -> None:
        """A new request: its head is measured from nothing."""
        self._parsed_head = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        """Count the request line as the parser reads it."""
        self._count_head(len(url) + len(b"GET  HTTP/1.1\r\n"))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count each header as the parser reads it (a pipelined head is held to the limit too)."""
        self._count_head(len(name) + len(value) + len(b": \r\n"))
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is in: no head deadline, nothing more to measure until the next request; the body's
        deadline starts."""
        self._in_head = False
        self._head = b""
        self._disarm()
        super().on_headers_complete()
        if self._body_deadline is None:
            self._body_deadline = self.loop.call_later(self.body_timeout_s, self._body_too_slow)

    def on_message_complete(self) -> None:
        """The body is in; the next bytes on this connection start a new head."""
        self._disarm_body()
        super().on_message_complete()
        self._in_head = True

    def send_400_response(self, msg: str) -> None:
        """A head the parser refused: 431 if it was over the size limit, else 400 ``bad_request``, both in
        the envelope (uvicorn's own is plain text)."""
        if self._head_over:
            self.transport.write(head_refusal())
        else:
            self.transport.write(
                envelope_response("400 Bad Request", "bad_request", "The request could not be parsed.")
            )
        self.transport.close()

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        # Past the concurrency limit uvicorn answers with its plain-text app; ours is the envelope.
        super()._start_asgi_task(cycle, busy_envelope if app is service_unavailable else app)

    def connection_lost(self, exc: Exception | None) -> None:
        """No deadline outlives its connection."""
        self._disarm()
        self._disarm_body()
        super().connection_lost(exc)

    def _count_head(self, size: int) -> None:
        self._parsed_head += size
        if self._parsed_head + 2 > self.max_head_bytes:
            self._head_over = True
            raise _HeadTooLarge  # httptools stops and reports a callback error: answered in send_400_response

    def _disarm_body(self) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None

    def _body_too_slow(self) -> None:
        self._body_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

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
