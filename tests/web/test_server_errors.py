"""An unexpected error answers one 500 in the envelope, is logged once, and keeps the connection usable."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator

import pytest
from fastapi import FastAPI

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.web.errors import install_error_handlers

from .live import read_response, serving


class _Errors(logging.Handler):
    """Keeps each ERROR record once, however many of the watched loggers it passes through."""

    def __init__(self, found: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.found = found

    def emit(self, record: logging.LogRecord) -> None:
        if all(r is not record for r in self.found):
            self.found.append(record)


@pytest.fixture
def error_records() -> Iterator[list[logging.LogRecord]]:
    """Every ERROR record of the process (root, ``shopfloor`` and ``uvicorn`` loggers), each counted once."""
    found: list[logging.LogRecord] = []
    handler = _Errors(found)
    loggers = [logging.getLogger(n) for n in ("", "shopfloor", "uvicorn", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    yield found
    for logger in loggers:
        logger.removeHandler(handler)


def _app_with_a_failing_route(tmp_path) -> FastAPI:
    """The main app with one more mounted app (set up like both apps) whose route fails."""
    app = create_app(Settings(var_dir=tmp_path, shifts_db=tmp_path / "none.duckdb"))
    sub = FastAPI()
    install_error_handlers(sub)

    @sub.get("/fail")
    def fail() -> None:
        raise RuntimeError("a bug")

    app.mount("/broken", sub)
    return app


def _get(sock: socket.socket, path: str) -> None:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nx-request-id: req_500500500500\r\n\r\n".encode())


def test_a_500_is_one_envelope_one_log_line_and_the_connection_stays_usable(tmp_path, error_records):
    app = _app_with_a_failing_route(tmp_path)
    with serving(app) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        _get(sock, "/broken/fail")
        status, headers, body = read_response(sock)
        assert status == 500
        assert json.loads(body) == {
            "error": {
                "code": "internal_error",
                "message": "Something went wrong on our side.",
                "request_id": "req_500500500500",
            }
        }
        # Either the connection is kept (and the next request on it is served) or the server says so.
        if headers.get("connection", "").lower() != "close":
            _get(sock, "/healthz")
            assert read_response(sock)[0] == 200
    assert len(error_records) == 1, [r.getMessage() for r in error_records]
    assert error_records[0].getMessage() == "http.unhandled" and error_records[0].exc_info


def test_an_error_in_the_main_app_itself_is_also_one_envelope_and_one_line(tmp_path, error_records):
    app = create_app(Settings(var_dir=tmp_path, shifts_db=tmp_path / "none.duckdb"))

    @app.get("/fail-here")
    def fail_here() -> None:
        raise RuntimeError("a bug")

    with serving(app) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        _get(sock, "/fail-here")
        status, _headers, body = read_response(sock)
        assert status == 500 and json.loads(body)["error"]["code"] == "internal_error"
        _get(sock, "/healthz")
        assert read_response(sock)[0] == 200
    assert len(error_records) == 1, [r.getMessage() for r in error_records]
