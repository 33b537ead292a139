"""The HTTP limits' former gaps, against a real ``shopfloor serve`` process over real sockets: a slowly sent
body has its own deadline, a pipelined head cannot pass the size limit, and the server's own 400 and 503 are
the error envelope (docs/security.md, "HTTP limits")."""

from __future__ import annotations

import json
import time

from shopfloor.workshop.sample import fresh_sample_store

from .live import closed_by_peer, connect, healthz_request, read_response, serve_fixture

BODY_TIMEOUT_S = 1.0
MAX_CONCURRENCY = 6
MAX_HEADER_BYTES = 8 * 1024


port = serve_fixture(
    {
        "SHOPFLOOR_HTTP_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S),
        "SHOPFLOOR_HTTP_MAX_CONCURRENCY": str(MAX_CONCURRENCY),
        "SHOPFLOOR_HTTP_MAX_HEADER_BYTES": str(MAX_HEADER_BYTES),
    },
    prepare_store=lambda db: fresh_sample_store(db).dispose(),  # sign-in reads a real store
)


def assert_envelope(body: bytes, code: str) -> None:
    error = json.loads(body)["error"]
    assert error["code"] == code and error["message"] and error["request_id"].startswith("req_")


def test_a_slowly_sent_body_is_cut_off_at_its_deadline(port: int) -> None:
    with connect(port) as sock:
        head = "POST /workshop/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        sock.sendall(f"{head}Content-Length: 100\r\n\r\n".encode() + b'{"email": ')
        started = time.monotonic()
        assert closed_by_peer(sock, within=BODY_TIMEOUT_S + 4)
        assert time.monotonic() - started >= BODY_TIMEOUT_S * 0.8


def test_a_body_sent_in_time_is_read(port: int) -> None:
    with connect(port) as sock:
        body = b'{"email": "a@b.example", "password": "x"}'
        head = "POST /workshop/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        sock.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body[:10])
        time.sleep(BODY_TIMEOUT_S / 4)
        sock.sendall(body[10:])
        status, _, _ = read_response(sock)
    assert status == 401


def test_a_pipelined_head_over_the_limit_is_refused(port: int) -> None:
    with connect(port) as sock:
        # One send: a small request, then a head 1.5 times the limit starting in the same read.
        big = healthz_request(f"x-big: {'a' * (MAX_HEADER_BYTES + MAX_HEADER_BYTES // 2)}\r\n")
        sock.sendall(healthz_request() + big)
        status, headers, body = read_response(sock)
        # The refusal may come before the small request's answer (the connection is closed at once).
        if status == 200:
            status, headers, body = read_response(sock)
    assert status == 431 and headers["connection"] == "close"
    assert_envelope(body, "header_too_large")


def test_a_head_that_cannot_be_parsed_is_a_400_in_the_envelope(port: int) -> None:
    with connect(port) as sock:
        sock.sendall(b"NOT AN HTTP REQUEST\r\n\r\n")
        status, headers, body = read_response(sock)
    assert status == 400 and headers["content-type"] == "application/json"
    assert_envelope(body, "bad_request")


def test_past_the_concurrency_limit_the_503_is_the_envelope(port: int) -> None:
    idle = [connect(port) for _ in range(MAX_CONCURRENCY)]
    try:
        time.sleep(0.2)
        with connect(port) as sock:
            sock.sendall(healthz_request())
            status, headers, body = read_response(sock)
    finally:
        for sock in idle:
            sock.close()
    assert status == 503 and headers["retry-after"] == "1"
    assert_envelope(body, "unavailable")
