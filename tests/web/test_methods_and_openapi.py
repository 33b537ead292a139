"""Unknown methods get 405 with ``Allow``; the OpenAPI documents describe the 400 envelope, not FastAPI's 422."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.web.errors import install_error_handlers
from shopfloor.web.responses import CSSResponse


class Body(BaseModel):
    n: int


@pytest.fixture
def app(tmp_path) -> FastAPI:
    return create_app(Settings(var_dir=tmp_path, workshop_db=f"sqlite:///{tmp_path / 'w.db'}"))


@pytest.mark.parametrize("method", ["TRACE", "TRACK", "FOO"])
@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/", {"GET"}),
        ("/healthz", {"GET"}),
        ("/workshop/api/hats", {"GET"}),
        ("/workshop/functions/v1/apply-proposals", {"POST"}),
        ("/shifts/static/shifts.css", {"GET"}),
    ],
)
def test_an_unknown_method_is_405_with_allow_in_the_envelope(app, method, path, allowed):
    r = TestClient(app, base_url="http://127.0.0.1").request(
        method, path, headers={"x-request-id": "req_405405405405"}
    )
    assert r.status_code == 405
    assert {m.strip() for m in r.headers["allow"].split(",")} == allowed
    assert r.json() == {
        "error": {
            "code": "method_not_allowed",
            "message": "Method Not Allowed",
            "request_id": "req_405405405405",
        }
    }


def _documents(app: FastAPI) -> dict[str, dict[str, Any]]:
    docs = {"/": app.openapi()}
    for route in app.routes:
        if isinstance(route, Mount) and isinstance(route.app, FastAPI):
            docs[route.path] = route.app.openapi()
    return docs


def test_no_openapi_document_promises_a_422_and_every_operation_documents_the_400_envelope(app):
    docs = _documents(app)
    assert set(docs) == {"/", "/workshop", "/shifts"}
    for prefix, doc in docs.items():
        assert "HTTPValidationError" not in doc.get("components", {}).get("schemas", {}), prefix
        envelope = doc["components"]["schemas"]["ErrorEnvelope"]
        assert envelope["required"] == ["error"]
        assert envelope["properties"]["error"]["required"] == ["code", "message", "request_id"]
        for path, operations in doc["paths"].items():
            for method, operation in operations.items():
                responses = operation["responses"]
                where = f"{prefix}{path} {method}"
                assert "422" not in responses, where
                for status in ("400", "500"):
                    content = responses[status]["content"]["application/json"]
                    assert content["schema"] == {"$ref": "#/components/schemas/ErrorEnvelope"}, where
                if "requestBody" in operation:
                    assert "413" in responses, where


def test_a_validation_failure_answers_the_documented_400():
    sub = FastAPI()
    install_error_handlers(sub)

    @sub.post("/take")
    def take(body: Body) -> dict[str, int]:
        return {"n": body.n}

    r = TestClient(sub).post("/take", json={"n": "many"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert "400" in sub.openapi()["paths"]["/take"]["post"]["responses"]


def test_a_stylesheet_route_is_served_and_documented_as_css():
    sub = FastAPI()
    install_error_handlers(sub)

    @sub.get("/style.css", response_class=CSSResponse)
    def style() -> str:
        return "p { color: black }"

    r = TestClient(sub).get("/style.css")
    assert r.status_code == 200 and r.headers["content-type"] == "text/css; charset=utf-8"
    assert r.text == "p { color: black }"
    documented = sub.openapi()["paths"]["/style.css"]["get"]["responses"]["200"]["content"]
    assert list(documented) == ["text/css"]


def test_the_shifts_stylesheet_is_served_as_css(app):
    r = TestClient(app, base_url="http://127.0.0.1").get("/shifts/static/shifts.css")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/css")
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/workshop/auth/tokens", {"GET", "POST"}),
        ("/workshop/tokens", {"GET", "POST"}),
    ],
)
def test_allow_lists_every_method_the_path_serves(app, path, allowed):
    r = TestClient(app, base_url="http://127.0.0.1").options(path)
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert {m.strip() for m in r.headers["allow"].split(",")} == allowed


@pytest.mark.parametrize("path", ["/shifts/", "/shifts/q", "/shifts/report", "/shifts/static/shifts.css"])
def test_a_post_to_a_get_route_of_the_shifts_is_405_in_the_envelope(app, path):
    # No JSON, no Origin, no token: the method is refused first, since no body could make it right.
    r = TestClient(app, base_url="http://127.0.0.1").post(path, content=b"x=1")
    assert r.status_code == 405, r.text
    assert r.json()["error"]["code"] == "method_not_allowed"
    assert {m.strip() for m in r.headers["allow"].split(",")} == {"GET"}


def test_a_post_to_the_shifts_ask_route_still_meets_its_guard(app):
    r = TestClient(app, base_url="http://127.0.0.1").post("/shifts/ask", content=b"x=1")
    assert r.status_code == 415 and r.json()["error"]["code"] == "unsupported_media_type"


def test_the_spend_route_documents_the_401_and_403_it_answers(tmp_path):
    from shopfloor.workshop.sample import fresh_sample_store

    fresh_sample_store(tmp_path / "w.db").dispose()
    app = create_app(
        Settings(
            var_dir=tmp_path,
            workshop_db=f"sqlite:///{tmp_path / 'w.db'}",
            secret_key="a-test-key-that-is-long-enough-0123456789",  # type: ignore[arg-type]
        )
    )
    responses = _documents(app)["/workshop"]["paths"]["/spend"]["get"]["responses"]
    for status in ("401", "403"):
        content = responses[status]["content"]["application/json"]
        assert content["schema"] == {"$ref": "#/components/schemas/ErrorEnvelope"}, status
    with TestClient(app, base_url="http://127.0.0.1") as c:
        assert c.get("/workshop/spend").status_code == 401
        member = {"email": "ana@taller.example", "password": "ana-toquilla-demo"}
        assert c.post("/workshop/auth/login", json=member).status_code == 200
        refused = c.get("/workshop/spend")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
