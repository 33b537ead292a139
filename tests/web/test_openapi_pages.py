"""The OpenAPI documents say what the page routes and ``/workshop/spend`` answer: the sign-in redirect (303),
htmx's 401, the error pages (403, 404), the guard's answers on ``/shifts`` (421, 429, 503; 403, 413, 415 on the
POST), the HTML and PDF media types; every error in the one ``ErrorEnvelope`` component; and a method a path
does not serve is 405 with ``Allow`` naming the methods its document lists (docs/security.md, "Input limits")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop.sample import fresh_sample_store

ENVELOPE = {"$ref": "#/components/schemas/ErrorEnvelope"}
HTML = {"type": "string"}
# The workshop routes that are not pages: the JSON API, its sign-in and functions, the spend route.
NOT_PAGES = ("/auth/", "/api/", "/functions/", "/spend")
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    tmp_path: Path = tmp_path_factory.mktemp("pages")
    fresh_sample_store(tmp_path / "w.db").dispose()
    return create_app(
        Settings(
            var_dir=tmp_path,
            workshop_db=f"sqlite:///{tmp_path / 'w.db'}",
            shifts_db=tmp_path / "no-shifts.duckdb",
            secret_key="a-test-key-that-is-long-enough-0123456789",  # type: ignore[arg-type]
        )
    )


def documents(app: FastAPI) -> dict[str, dict[str, Any]]:
    return {
        route.path: route.app.openapi()
        for route in app.routes
        if isinstance(route, Mount) and isinstance(route.app, FastAPI)
    }


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in doc["paths"].items() for method, op in item.items()]


def media(response: dict[str, Any]) -> dict[str, Any]:
    return {kind: value.get("schema") for kind, value in response.get("content", {}).items()}


def test_every_workshop_page_documents_its_sign_in_redirect_htmx_401_and_error_pages(app: FastAPI):
    pages = [
        (p, m, op) for p, m, op in operations(documents(app)["/workshop"]) if not p.startswith(NOT_PAGES)
    ]
    assert len(pages) >= 20
    for path, method, op in pages:
        responses, where = op["responses"], f"{method} {path}"
        if path == "/signin":
            continue  # no session needed: below
        assert "content" not in responses["303"] and "Location" in responses["303"]["headers"], where
        assert media(responses["401"])["application/json"] == ENVELOPE, where
        assert media(responses["403"]) == {"text/html": HTML}, (
            where
        )  # CSRF or role: an error page, never JSON
        for status in ("503", "507"):
            assert media(responses[status])["application/json"] == ENVELOPE, (where, status)
        if method == "get":
            expected = "application/pdf" if path.endswith(".pdf") else "text/html"
            assert set(media(responses["200"])) == {expected}, where
        if "{" in path:  # the router's 404 for a value it cannot match, and the page's own
            assert set(media(responses["404"])) == {"application/json", "text/html"}, where
    doc = documents(app)["/workshop"]["paths"]
    assert set(doc["/signout"]["post"]["responses"]) >= {"204", "303", "401", "403"}
    assert "200" not in doc["/signout"]["post"]["responses"]
    assert "200" not in doc["/language"]["post"]["responses"]
    assert media(doc["/"]["get"]["responses"]["404"]) == {"text/html": HTML}  # GET /?run=… names no run


def test_the_sign_in_post_documents_its_redirect_and_its_form_answers(app: FastAPI):
    responses = documents(app)["/workshop"]["paths"]["/signin"]["post"]["responses"]
    assert "200" not in responses and "content" not in responses["303"]
    for status in ("401", "403", "429"):  # wrong password, login CSRF, throttled: the form again
        assert media(responses[status]) == {"text/html": HTML}, status
    assert set(media(documents(app)["/workshop"]["paths"]["/signin"]["get"]["responses"]["200"])) == {
        "text/html"
    }


def test_a_page_without_a_session_answers_its_documented_303_and_to_htmx_the_401_envelope(app: FastAPI):
    client = TestClient(app, base_url="http://127.0.0.1", follow_redirects=False)
    r = client.get("/workshop/hats")
    assert r.status_code == 303 and r.headers["location"] == "/workshop/signin?next=/workshop/hats"
    r = client.post("/workshop/notes", data={"note": "x"}, headers={"hx-request": "true"})
    assert r.status_code == 401 and r.headers["hx-redirect"] == "/workshop/signin?next=/workshop/notes"
    assert r.json()["error"]["code"] == "unauthorized" and r.json()["error"]["request_id"]


def test_the_spend_route_documents_every_status_it_answers(app: FastAPI):
    responses = documents(app)["/workshop"]["paths"]["/spend"]["get"]["responses"]
    for status in ("400", "401", "403", "500", "503", "507"):
        assert media(responses[status])["application/json"] == ENVELOPE, status
    assert "303" not in responses  # a JSON route: no sign-in page


def test_every_shifts_route_documents_the_guards_answers(app: FastAPI):
    doc = documents(app)["/shifts"]["paths"]
    for path, method, op in operations(documents(app)["/shifts"]):
        responses, where = op["responses"], f"{method} {path}"
        for status in ("400", "421", "500"):
            assert media(responses[status])["application/json"] == ENVELOPE, (where, status)
        if not path.startswith("/static/"):  # static files are neither paced nor counted
            for status in ("429", "503"):
                assert media(responses[status])["application/json"] == ENVELOPE, (where, status)
    assert {"403", "413", "415", "499"} <= set(doc["/ask"]["post"]["responses"])
    assert (
        set(doc["/language"]["get"]["responses"]) >= {"303"}
        and "200" not in doc["/language"]["get"]["responses"]
    )
    assert "303" in doc["/q"]["get"]["responses"]
    assert set(media(doc["/q"]["get"]["responses"]["200"])) == {"application/json", "text/html"}
    assert set(media(doc["/a"]["get"]["responses"]["200"])) == {
        "text/html",
        "application/pdf",
        "application/json",
    }
    assert set(media(doc["/report"]["get"]["responses"]["200"])) == {
        "application/json",
        "application/pdf",
        "text/html",
    }
    for path in ("/", "/guide", "/scope"):
        assert set(media(doc[path]["get"]["responses"]["200"])) == {"text/html"}, path
    assert "404" in doc["/static/{name}"]["get"]["responses"]


def test_every_429_and_every_error_is_the_one_envelope_component(app: FastAPI):
    seen_429 = 0
    for prefix, doc in documents(app).items():
        schemas = doc["components"]["schemas"]
        copies = [
            name
            for name, schema in schemas.items()
            if name != "ErrorEnvelope" and "error" in schema.get("properties", {})
        ]
        assert copies == [], (prefix, copies)
        for path, method, op in operations(doc):
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")) and "application/json" in response.get("content", {}):
                    assert media(response)["application/json"] == ENVELOPE, (prefix, path, method, status)
                    seen_429 += status == "429"
    assert seen_429 >= 10


def test_a_method_a_path_does_not_serve_is_405_with_allow_naming_its_documented_methods(app: FastAPI):
    # The /shifts routes answer only their configured host names (docs/security.md): 127.0.0.1 is one.
    client = TestClient(app, base_url="http://127.0.0.1", follow_redirects=False)
    checked = 0
    for prefix, doc in documents(app).items():
        for path, item in doc["paths"].items():
            documented = {method.upper() for method in item}
            url = prefix + re.sub(r"\{[^}]+\}", "x", path)
            for method in sorted(set(METHODS) - documented):
                r = client.request(method, url)
                assert r.status_code == 405, (method, url, r.status_code, r.text[:200])
                assert {m.strip() for m in r.headers["allow"].split(",")} == documented, (method, url)
                assert r.json()["error"]["code"] == "method_not_allowed"
                checked += 1
    assert checked >= 150
