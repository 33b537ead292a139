"""The fuzz gate can fail: served an app whose routes answer outside their OpenAPI document (an undocumented
status, a body off its schema, an error body that is not the envelope, another media type, a 5xx), the gate's
checks name each of them, and nothing on a route that keeps its word (docs/security.md, "Input limits")."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

from shopfloor.web.errors import ApiError, install_error_handlers
from shopfloor.web.middleware import RequestIdMiddleware
from shopfloor.web.openapi import error_responses
from tests.fuzz.gate import run_gate


class Count(BaseModel):
    n: int


def served(route: str) -> FastAPI:
    """An app with error handlers and one GET ``route`` that documents a 200 ``Count`` (and a 404 envelope);
    every error carries its request id, as behind the server's middleware."""
    app = FastAPI()
    install_error_handlers(app)
    app.add_middleware(RequestIdMiddleware)
    answers: dict[str, Any] = {
        "/kept": lambda: {"n": 1},
        "/kept-404": lambda: (_ for _ in ()).throw(ApiError(404, "not_found", "No such count.")),
        "/teapot": lambda: JSONResponse({"n": 1}, status_code=418),
        "/off-schema": lambda: JSONResponse({"n": "many"}),
        "/bare-404": lambda: JSONResponse({"detail": "Not Found"}, status_code=404),
        "/as-html": lambda: HTMLResponse("<p>1</p>"),
        "/broken": lambda: 1 / 0,
    }

    @app.get(route, response_model=Count, responses=error_responses(404))
    def answer() -> Any:
        return answers[route]()

    return app


def gate(app: FastAPI) -> list[str]:
    client = TestClient(app, base_url="http://test", raise_server_exceptions=False, follow_redirects=False)
    report = run_gate(app.openapi(), client, "http://test", examples=2)
    assert report.sent > 0 and report.reached == {f"GET {next(iter(app.openapi()['paths']))}"}
    return report.found


@pytest.mark.parametrize("route", ["/kept", "/kept-404"])
def test_a_route_that_answers_what_it_documents_passes(route: str):
    assert gate(served(route)) == []


@pytest.mark.parametrize(
    ("route", "failure"),
    [
        ("/teapot", "UndefinedStatusCode"),  # status_code_conformance
        ("/off-schema", "JsonSchemaError"),  # response_schema_conformance: the 200's Count
        ("/bare-404", "JsonSchemaError"),  # response_schema_conformance: the 404's ErrorEnvelope
        ("/as-html", "UndefinedContentType"),  # content_type_conformance
        ("/broken", "ServerError"),  # not_a_server_error (the 500 is documented, and still fails)
    ],
)
def test_the_gate_reports_an_answer_outside_the_document(route: str, failure: str):
    found = gate(served(route))
    assert found, f"{route}: the gate found nothing"
    assert all(f"GET {route} → " in line for line in found), found
    assert any(f": {failure}:" in line for line in found), found
