"""Pure-ASGI middleware shared by both apps: request ids, security and caching headers, a request body limit."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shopfloor.logs import new_request_id, request_id_var

_REQUEST_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # same-origin, not no-referrer: our own form posts keep their real Origin (under no-referrer a browser sends
    # ``Origin: null``, which an Origin check cannot tell from a foreign page), and other sites still get nothing.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    ),
]


# Headers that govern a document (what it may load, who may frame or open it). A stylesheet or a page's
# script is no document, so they are left off those (a few hundred bytes a file on a slow phone); a service
# worker's script keeps them, because the worker runs under its own script's policy.
DOCUMENT_ONLY = {b"content-security-policy", b"x-frame-options", b"cross-origin-opener-policy"}
_SUBRESOURCE_TYPES = (b"text/css", b"text/javascript", b"application/javascript")


def security_headers(
    request_headers: list[tuple[bytes, bytes]], response_headers: list[tuple[bytes, bytes]]
) -> list[tuple[bytes, bytes]]:
    """The security headers a response gets: all of them, except that a stylesheet or a page's script
    (not a service worker's, which the browser asks for with ``Service-Worker: script``) gets none of
    :data:`DOCUMENT_ONLY`."""
    kind = next((v for k, v in response_headers if k.lower() == b"content-type"), b"")
    worker = any(k.lower() == b"service-worker" for k, _ in request_headers)
    if kind.split(b";")[0].strip().lower() in _SUBRESOURCE_TYPES and not worker:
        return [(k, v) for k, v in SECURITY_HEADERS if k not in DOCUMENT_ONLY]
    return SECURITY_HEADERS


def accept_request_id(value: str | None) -> str:
    """The client's ``x-request-id`` when it is a short safe token, else a fresh ``req_<12 hex>``."""
    if value and _REQUEST_ID.match(value):
        return value
    return new_request_id()


class RequestIdMiddleware:
    """Binds a request id to the request (``scope['state']``), the log context and the response header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        raw = headers.get(b"x-request-id")
        request_id = accept_request_id(raw.decode("latin-1") if raw else None)
        scope.setdefault("state", {})["request_id"] = request_id
        token = request_id_var.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id_var.reset(token)


_CREDENTIAL_HEADERS = (b"authorization", b"cookie")

# The one caching a per-user answer may choose instead of ``no-store``: kept by this browser only, and
# revalidated before every use. Only the sign-in form uses it (docs/security.md, "Caching"): it holds no one's
# data, only the form and this browser's own sign-in token, and under ``no-store`` Chromium never starts the
# service worker's fetch of that page while the sign-in post is leaving it, so the worker's install (which
# keeps the sign-in page for offline reading) waits forever.
PRIVATE_REVALIDATED = b"private, no-cache"


def needs_no_store(
    request_headers: list[tuple[bytes, bytes]], response_headers: list[tuple[bytes, bytes]]
) -> bool:
    """Whether a response is per-user: the request carried credentials (a bearer token or any cookie), or
    the response sets a cookie. Such responses must never sit in a shared or browser cache."""
    if any(name.lower() in _CREDENTIAL_HEADERS for name, _ in request_headers):
        return True
    return any(name.lower() == b"set-cookie" for name, _ in response_headers)


# What a response made ``no-store`` loses: its caching, and the validators only a stored copy would use.
_NO_STORE_DROPS = (b"cache-control", b"etag", b"last-modified")


def _private_revalidated(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the route chose :data:`PRIVATE_REVALIDATED` itself."""
    return any(k.lower() == b"cache-control" and v == PRIVATE_REVALIDATED for k, v in headers)


class SecurityHeadersMiddleware:
    """Adds restrictive security headers (CSP, no sniffing, no framing; see :func:`security_headers`) to every
    response, and
    ``Cache-Control: no-store`` to every per-user one (see :func:`needs_no_store`, docs/security.md) unless
    its route chose :data:`PRIVATE_REVALIDATED`; such a response goes without ``ETag`` and ``Last-Modified``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        request_headers = list(scope.get("headers") or [])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if needs_no_store(request_headers, headers) and not _private_revalidated(headers):
                    # Replaces any other caching a route chose: a per-user answer is never stored. Nor are
                    # its validators sent: what is never stored is never revalidated, and a phone on a slow
                    # link carried a static file's ETag on every signed-in load (a 304 keeps its own).
                    dropped = _NO_STORE_DROPS if message.get("status") != 304 else (b"cache-control",)
                    headers = [(k, v) for k, v in headers if k.lower() not in dropped]
                    headers.append((b"cache-control", b"no-store"))
                present = {k.lower() for k, _ in headers}
                extra = [(k, v) for k, v in security_headers(request_headers, headers) if k not in present]
                message["headers"] = [*headers, *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimitMiddleware:
    """Refuses request bodies over ``max_bytes`` with a 413 envelope before the route reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(scope, send)
            return
        # Chunked bodies have no length header: count while reading, and refuse once over the limit.
        chunks: list[bytes] = []
        total = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._refuse(scope, send)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        request_id = scope.get("state", {}).get("request_id") or request_id_var.get()
        body: dict[str, Any] = {
            "error": {
                "code": "payload_too_large",
                "message": f"The request body is larger than {self.max_bytes} bytes.",
                "request_id": request_id,
            }
        }
        data = json.dumps(body).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(data)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": data})


class PathAliasMiddleware:
    """Serves a path prefix under another one, so a documented address keeps working where an app is mounted.

    The workshop's functions are documented at ``/functions/v1/...`` while the workshop app lives at
    ``/workshop`` (docs/workshop-agent.md, "Contract").
    Rewriting the path (rather than registering the routes twice) keeps one implementation of each route.
    """

    def __init__(self, app: ASGIApp, aliases: dict[str, str]) -> None:
        self.app = app
        self.aliases = aliases

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            for alias, target in self.aliases.items():
                if path.startswith(alias):
                    new_path = target + path[len(alias) :]
                    scope = {**scope, "path": new_path, "raw_path": new_path.encode()}
                    break
        await self.app(scope, receive, send)
