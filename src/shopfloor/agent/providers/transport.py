"""The pooled HTTP client every live adapter shares, and the cancellation of one call on it.

The SDKs (``anthropic``, ``openai``, ``google-genai``, all on ``httpx2``) take no abort signal: the only way to
stop a call in flight is to close its connection. Closing the client would stop every call of the process,
so the client's connection pool uses a network backend whose streams register themselves, for the length of
each read, write or connect, with the :class:`~shopfloor.agent.providers.base.CallCancel` of the call running
in that thread (set by :func:`bound_to` around the SDK call). ``CallCancel.cancel`` then shuts the socket
down: the server sees the connection closed at once and stops generating, and the SDK's retries of that call
fail before they connect. docs/providers.md, "Retries, timeouts, errors", says what this covers.
"""

from __future__ import annotations

import socket
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore2
import httpx2

from shopfloor.agent.providers.base import CallCancel

_current: ContextVar[CallCancel | None] = ContextVar("shopfloor_model_call", default=None)

# Generous for a server process: many runs wait on a model at once, each holding one connection.
LIMITS = httpx2.Limits(max_connections=200, max_keepalive_connections=40, keepalive_expiry=30.0)
CANCELLED = "the model call was cancelled"


@contextmanager
def bound_to(cancel: CallCancel | None) -> Iterator[None]:
    """Run an SDK call in this thread under ``cancel`` (None: the call cannot be cancelled)."""
    token = _current.set(cancel)
    try:
        yield
    finally:
        _current.reset(token)


class CancellableStream(httpcore2.NetworkStream):
    """A socket stream whose blocking reads and writes a :class:`CallCancel` can end from another thread."""

    def __init__(self, inner: httpcore2.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        """Read, unless the current call is cancelled (then the connection is closed under it)."""
        call = _current.get()
        if call is None:
            return self._inner.read(max_bytes, timeout)
        if not call.enter(self):
            raise httpcore2.ReadError(CANCELLED)
        try:
            return self._inner.read(max_bytes, timeout)
        finally:
            call.leave(self)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        """Write, unless the current call is cancelled."""
        call = _current.get()
        if call is None:
            self._inner.write(buffer, timeout)
            return
        if not call.enter(self):
            raise httpcore2.WriteError(CANCELLED)
        try:
            self._inner.write(buffer, timeout)
        finally:
            call.leave(self)

    def close(self) -> None:
        """Close the socket."""
        self._inner.close()

    def abort(self) -> None:
        """Shut the socket down from another thread: a blocked read returns at once and the peer sees FIN."""
        sock = self._inner.get_extra_info("socket")
        if sock is None:
            return
        try:
            # The plain socket's shutdown, also for a TLS socket (whose own shutdown would drop its state
            # under the reading thread).
            socket.socket.shutdown(sock, socket.SHUT_RDWR)
        except OSError:
            pass  # already closed

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore2.NetworkStream:
        """TLS over this stream, still cancellable."""
        return CancellableStream(self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        """The inner stream's details (the pool asks whether the socket is readable)."""
        return self._inner.get_extra_info(info)


class CancellableBackend(httpcore2.NetworkBackend):
    """The standard synchronous backend, with :class:`CancellableStream` connections."""

    def __init__(self) -> None:
        self._inner = httpcore2.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore2.NetworkStream:
        """Connect, unless the current call is already cancelled (an SDK retry after an abort)."""
        _refuse_cancelled()
        stream = CancellableStream(
            self._inner.connect_tcp(host, port, timeout, local_address, socket_options)
        )
        return _checked(stream)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore2.NetworkStream:
        """Connect to a Unix socket, unless the current call is already cancelled."""
        _refuse_cancelled()
        return _checked(CancellableStream(self._inner.connect_unix_socket(path, timeout, socket_options)))

    def sleep(self, seconds: float) -> None:
        """Pause (the pool's retry back-off)."""
        self._inner.sleep(seconds)


def _refuse_cancelled() -> None:
    call = _current.get()
    if call is not None and call.cancelled:
        raise httpcore2.ConnectError(CANCELLED)


def _checked(stream: CancellableStream) -> CancellableStream:
    """A connection made while the call was being cancelled is closed at once."""
    call = _current.get()
    if call is not None and call.cancelled:
        stream.close()
        raise httpcore2.ConnectError(CANCELLED)
    return stream


def pooled_client() -> httpx2.Client:
    """An ``httpx2.Client`` with a connection pool whose calls :class:`CallCancel` can cancel.

    Timeouts are given per call by the SDKs. The backend is set on the transport's pool after it is built
    (``httpx2.HTTPTransport`` takes no backend argument); a test holds the behaviour (tests/agent/test_call_cancel.py).
    """
    transport = httpx2.HTTPTransport(limits=LIMITS)
    pool = transport._pool
    if not isinstance(pool, httpcore2.ConnectionPool):  # pragma: no cover - a proxy from the environment
        raise TypeError(f"unexpected connection pool {type(pool).__name__}")
    pool._network_backend = CancellableBackend()
    return httpx2.Client(transport=transport, follow_redirects=True)
