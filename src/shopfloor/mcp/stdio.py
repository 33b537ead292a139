"""``shopfloor mcp --as EMAIL``: the MCP server over stdio for a local client, as that workshop user.

stdout is the protocol: nothing here prints to it (the logs go to stderr, docs/deploy.md, "Logs").
"""

from __future__ import annotations

import anyio
import anyio.to_thread

from shopfloor import workshop
from shopfloor.mcp.tools import Backend
from shopfloor.settings import Settings


class UnknownUser(Exception):
    """``--as`` names no active user of the workshop store."""


async def serve_stdio(settings: Settings, email: str) -> None:
    """Serve MCP on stdin/stdout until the client closes stdin (which cancels a call still running)."""
    from mcp.server.stdio import stdio_server

    from shopfloor.mcp.server import build_server

    backend = Backend(settings)
    actor = await anyio.to_thread.run_sync(workshop.actor_by_email, backend.store, email)
    if actor is None:
        raise UnknownUser(f"No active user {email!r} in the workshop store.")
    server = build_server(backend, lambda _ctx: actor)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
