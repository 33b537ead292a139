"""How ``shopfloor serve --workers N`` gives every worker process its share of the connections
(docs/deploy.md, "Several server processes").

uvicorn's own multi-worker mode binds one listening socket in its supervisor and hands that socket to every
worker: connections that arrive together are mostly accepted by whichever worker wakes first, and keep-alive
connections stay where they were accepted, so a few of them (a reverse proxy's, a load test's) can keep one
worker busy while the others idle. On Linux each worker here binds a socket of its own to the address with
``SO_REUSEPORT`` instead, and the kernel spreads new connections over the workers' sockets; a worker that
exits takes its socket with it, so nothing is sent to a worker that is gone. uvicorn's supervisor still runs
the workers: its health checks, the replacement of a worker that dies or hangs, and the signals (Ctrl+C stops
every process).
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import uvicorn
import uvloop
from uvicorn.supervisors import Multiprocess

# The event loop of each worker that binds its own socket, as uvicorn's ``loop`` option (an import string).
REUSE_PORT_LOOP = "shopfloor.server.workers:ReusePortLoop"


def workers_bind_their_own_sockets() -> bool:
    """Whether this system spreads connections over sockets that share an address with ``SO_REUSEPORT``.

    Only Linux balances them (macOS and the BSDs accept the option but give every connection to one socket);
    where the option is missing, or the kernel refuses it, the workers share uvicorn's one socket."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "SO_REUSEPORT"):
        return False
    with socket.socket() as probe:
        try:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        except OSError:
            return False
    return True


class ReusePortLoop(uvloop.Loop):
    """uvloop's event loop (uvicorn's choice when it is installed) whose listening sockets are bound with
    ``SO_REUSEPORT``: given no socket, a uvicorn worker binds its own through ``create_server``."""

    async def create_server(self, *args: Any, **kwargs: Any) -> Any:
        """``uvloop.Loop.create_server`` with ``reuse_port`` on unless the caller says otherwise."""
        kwargs.setdefault("reuse_port", True)
        return await super().create_server(*args, **kwargs)


def run_workers(config: uvicorn.Config) -> None:
    """Run ``config.workers`` worker processes under uvicorn's supervisor, each binding its own socket.

    ``config`` must name :data:`REUSE_PORT_LOOP` as its loop and the app as an import string. The address is
    bound once here first, without ``SO_REUSEPORT``, and let go: if another server holds it, that bind fails
    as uvicorn's own does (logged, exit status 3), where the workers' binds would quietly share it."""
    config.bind_socket().close()
    try:
        # No socket for the workers: each one's uvicorn server binds the host and port itself.
        Multiprocess(config, sockets=None).run()  # type: ignore[arg-type]
    except KeyboardInterrupt:  # as uvicorn.run: Ctrl+C before the supervisor's own signal handlers are set
        pass
