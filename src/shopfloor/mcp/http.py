"""Streamable HTTP at ``/mcp`` on the server's app, behind the workshop's bearer tokens (docs/mcp.md).

:class:`McpEndpoint` is the route's ASGI app. It imports nothing of the MCP SDK itself: the server's lifespan
enters :meth:`McpEndpoint.running`, which builds the MCP server in a worker thread (the SDK takes seconds to
import) and runs its session manager, so the server starts answering at once and a call to ``/mcp`` made
in the first seconds waits until the MCP server is ready.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shopfloor import workshop
from shopfloor.logs import get_logger
from shopfloor.mcp.tools import Backend
from shopfloor.settings import Settings

log = get_logger("shopfloor.mcp")

METHODS = ["GET", "POST", "DELETE"]
READY_WAIT_S = 60.0
UNAVAILABLE = "The MCP server is not available; try again shortly."


async def json_rpc_error(send: Send, status: int, code: str, message: str, **headers: str) -> None:
    """An HTTP error whose body is a JSON-RPC error (``id`` null): an MCP client reads its code, message and
    data as an MCP error, where another body would only say "Server returned an error response"."""
    error = {"code": status, "message": message, "data": {"code": code, "status": status}}
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode()
    extra = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BearerGuard:
    """Every request to the MCP app needs a workshop bearer token that is valid now (an unknown, revoked or
    expired one is 401 before MCP reads the body); the token's user goes into the request's state, and the
    POST's disconnect is recorded so a call it carried can be cancelled."""

    def __init__(self, app: ASGIApp, backend: Backend) -> None:
        self.app = app
        self.backend = backend

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
        from mcp.server.auth.provider import AccessToken

        from shopfloor.mcp.server import ACTOR_KEY, DISCONNECT_KEY, UNAUTHORIZED

        headers = dict(scope.get("headers") or [])
        raw = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = raw.partition(" ")
        token = token.strip()
        actor = None
        if raw and scheme.lower() == "bearer" and token:
            actor = await anyio.to_thread.run_sync(workshop.actor_for_token, self.backend.store, token)
        if actor is None:
            message = UNAUTHORIZED if raw else "Sign in first."
            await json_rpc_error(send, 401, "unauthorized", message, **{"www-authenticate": "Bearer"})
            return
        # The session manager ties a session to this principal: another token cannot use its session id.
        scope["user"] = AuthenticatedUser(
            AccessToken(token=token, client_id=actor.user_id, scopes=[actor.role], subject=actor.user_id)
        )
        disconnected = anyio.Event()
        state: dict[str, Any] = scope.setdefault("state", {})
        state[ACTOR_KEY] = actor
        state[DISCONNECT_KEY] = disconnected

        async def watched() -> Message:
            message = await receive()
            if message["type"] == "http.disconnect":
                disconnected.set()
            return message

        await self.app(scope, watched, send)


def _build(settings: Settings, backend: Backend) -> tuple[ASGIApp, Any]:
    """The guarded MCP app and its session manager (imports the SDK; run in a worker thread)."""
    from mcp.server.transport_security import TransportSecuritySettings

    from shopfloor.mcp.server import build_server, http_actor

    server = build_server(backend, http_actor)
    hosts = sorted(settings.shifts_host_names())
    server.streamable_http_app(
        streamable_http_path="/mcp",
        # Stateful: a handshake client's name reaches every call (the workshop run is tagged with it).
        stateless_http=False,
        # An SSE response, not one JSON body: a client that goes away then cancels its call.
        json_response=False,
        transport_security=TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[*hosts, *(f"{h}:*" for h in hosts)],
            allowed_origins=[f"{s}://{h}{p}" for s in ("http", "https") for h in hosts for p in ("", ":*")],
        ),
    )
    manager = server.session_manager
    return BearerGuard(manager.handle_request, backend), manager


class McpEndpoint:
    """The ``/mcp`` route: the guarded MCP app once :meth:`running` has built it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.backend = Backend(settings)
        self._app: ASGIApp | None = None
        self._ready: anyio.Event | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Build the MCP server in the background and run its session manager while the server runs."""
        self._ready = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(self._serve)
            try:
                yield
            finally:
                group.cancel_scope.cancel()
                self._app = None
                self.backend.dispose()

    async def _serve(self) -> None:
        assert self._ready is not None
        try:
            # Abandoned when the server stops before the import finished, so a stop never waits for it.
            app, manager = await anyio.to_thread.run_sync(
                _build, self.settings, self.backend, abandon_on_cancel=True
            )
        except Exception:
            log.exception("mcp.start.failed")
            self._ready.set()
            return
        async with manager.run():
            self._app = app
            self._ready.set()
            await anyio.sleep_forever()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None and self._ready is not None:
            with anyio.move_on_after(READY_WAIT_S):
                await self._ready.wait()
        if self._app is None:
            await json_rpc_error(send, 503, "unavailable", UNAVAILABLE)
            return
        await self._app(scope, receive, send)
