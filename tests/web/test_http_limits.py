"""The server's HTTP limits, against a real ``shopfloor serve`` process over real sockets."""

from __future__ import annotations

import json
import time

import pytest

from shopfloor.server.http_limits import head_too_large, uvicorn_options
from shopfloor.settings import Settings

from .live import closed_by_peer, connect, healthz_request, read_response, serve_fixture

HEADER_TIMEOUT_S = 1.0
KEEP_ALIVE_S = 1
MAX_CONCURRENCY = 6
MAX_HEADER_BYTES = 8 * 1024


port = serve_fixture(
    {
        "SHOPFLOOR_HTTP_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S),
        "SHOPFLOOR_HTTP_KEEP_ALIVE_S": str(KEEP_ALIVE_S),
        "SHOPFLOOR_HTTP_MAX_CONCURRENCY": str(MAX_CONCURRENCY),
        "SHOPFLOOR_HTTP_MAX_HEADER_BYTES": str(MAX_HEADER_BYTES),
    }
)


@pytest.mark.slow
def test_an_ordinary_request_is_served_without_a_server_header(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(healthz_request())
        status, headers, _ = read_response(sock)
    assert status == 200 and "server" not in headers


@pytest.mark.slow
def test_an_oversized_header_is_refused_and_the_connection_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(healthz_request(f"x-big: {'a' * (4 * MAX_HEADER_BYTES)}\r\n"))
        status, headers, body = read_response(sock)
        assert status == 431 and headers.get("connection") == "close"
        assert json.loads(body)["error"]["code"] == "header_too_large"
        assert closed_by_peer(sock, within=5)
    with connect(port) as sock:  # sent in pieces, as a slow client would
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\nx-big: ")
        try:
            for _ in range(4):
                sock.sendall(b"a" * (MAX_HEADER_BYTES // 2))
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused part-way, as it should be
        assert read_response(sock)[0] == 431
    with connect(port) as sock:  # a header under the limit is fine
        sock.sendall(healthz_request(f"x-big: {'a' * (MAX_HEADER_BYTES // 2)}\r\n"))
        assert read_response(sock)[0] == 200


@pytest.mark.slow
def test_a_connection_that_never_sends_is_closed_after_the_header_timeout(port: int) -> None:
    with connect(port) as sock:
        started = time.monotonic()
        assert closed_by_peer(sock, within=HEADER_TIMEOUT_S + 3)
        assert time.monotonic() - started >= HEADER_TIMEOUT_S * 0.8


@pytest.mark.slow
def test_headers_sent_a_byte_at_a_time_are_cut_off_at_the_header_timeout(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < HEADER_TIMEOUT_S + 3:
            try:
                sock.sendall(b"x")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            if closed_by_peer(sock, within=0.2):
                closed = True
                break
        assert closed, "a slow sender kept the connection past the header timeout"
        assert time.monotonic() - started < HEADER_TIMEOUT_S + 2


@pytest.mark.slow
def test_an_idle_keep_alive_connection_is_closed(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(healthz_request())
        assert read_response(sock)[0] == 200
        assert closed_by_peer(sock, within=KEEP_ALIVE_S + 3)


@pytest.mark.slow
def test_connections_over_the_concurrency_limit_get_503(port: int) -> None:
    idle = [connect(port) for _ in range(MAX_CONCURRENCY)]
    try:
        time.sleep(0.2)
        with connect(port) as sock:
            sock.sendall(healthz_request())
            assert read_response(sock)[0] == 503
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.3)
    with connect(port) as sock:
        sock.sendall(healthz_request())
        assert read_response(sock)[0] == 200


@pytest.mark.parametrize(
    ("head", "too_large"),
    [
        (b"GET / HTTP/1.1\r\n\r\n", False),
        (b"GET / HTTP/1.1\r\n\r\n" + b"x" * 100, False),  # a body after the head does not count
        (b"GET / HTTP/1.1\r\nx: " + b"a" * 20, True),
        (b"GET / HTTP/1.1\r\nx: " + b"a" * 10 + b"\r\n\r\n", True),
        (b"GET / HTTP/1.1\r\nx: " + b"a" * 9 + b"\r\n\r\n", False),
    ],
)
def test_head_too_large(head: bytes, too_large: bool) -> None:
    assert head_too_large(head, 32) is too_large


def test_the_limits_come_from_settings() -> None:
    options = uvicorn_options(
        Settings(
            http_max_header_bytes=12345,
            http_keep_alive_s=7,
            http_max_concurrency=99,
            http_header_timeout_s=3,
        )
    )
    assert options["timeout_keep_alive"] == 7 and options["limit_concurrency"] == 99
    assert options["server_header"] is False
    assert options["http"] == "shopfloor.server.http_limits:LimitedHttpToolsProtocol"


def test_the_server_runs_the_httptools_parser_with_the_limits() -> None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from shopfloor.server.http_limits import LimitedHttpToolsProtocol

    assert issubclass(LimitedHttpToolsProtocol, HttpToolsProtocol)


@pytest.mark.slow
def test_a_later_request_on_a_kept_alive_connection_has_the_same_limits(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(healthz_request())
        assert read_response(sock)[0] == 200
        sock.sendall(healthz_request(f"x-big: {'a' * (2 * MAX_HEADER_BYTES)}\r\n"))
        assert read_response(sock)[0] == 431
        assert closed_by_peer(sock, within=5)
    with connect(port) as sock:  # the second head starts, then stalls: cut off at the head deadline
        sock.sendall(healthz_request())
        assert read_response(sock)[0] == 200
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: t\r\n")
        started = time.monotonic()
        assert closed_by_peer(sock, within=HEADER_TIMEOUT_S + 3)
        assert time.monotonic() - started >= HEADER_TIMEOUT_S * 0.8
