"""The OpenAPI documents say what the workshop routes answer: every status, the agent route's request schema
and its JSON content type, the record store's stylesheet as CSS (docs/security.md, "Input limits")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.api import create_app as create_workshop_app
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store
from shopfloor.workshop.store import models as m

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
AGENT = "/functions/v1/workshop-agent"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(Settings(var_dir=tmp_path, workshop_db=f"sqlite:///{tmp_path / 'w.db'}"))


def document(app: FastAPI, prefix: str) -> dict:
    for route in app.routes:
        if isinstance(route, Mount) and route.path == prefix and isinstance(route.app, FastAPI):
            return route.app.openapi()
    raise AssertionError(prefix)


def test_every_workshop_operation_documents_its_statuses(app: FastAPI):
    paths = document(app, "/workshop")["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            statuses = set(operation["responses"])
            if not path.startswith(("/auth/", "/api/", "/functions/")):
                continue  # the HTML pages answer people with pages
            assert {"200", "400", "401", "500", "503", "507"} <= statuses, (method, path, statuses)
    agent = paths[AGENT]["post"]["responses"]
    assert {"413", "429", "499", "502", "504"} <= set(agent)
    assert "409" in paths["/functions/v1/apply-proposals"]["post"]["responses"]
    assert {"403", "404"} <= set(paths["/api/runs/{run_id}"]["get"]["responses"])


def test_the_agent_and_apply_routes_document_their_request_bodies(app: FastAPI):
    doc = document(app, "/workshop")
    agent = doc["paths"][AGENT]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert agent["required"] == ["note"] and set(agent["properties"]) == {
        "note",
        "input_mode",
        "hat_tag",
        "idempotency_key",  # the outbox's key (docs/workshop.md, "Idempotency keys")
        "said_at",
    }
    apply = doc["paths"]["/functions/v1/apply-proposals"]["post"]["requestBody"]["content"]
    assert "application/json" in apply


def test_the_pages_stylesheet_is_documented_and_served_as_css(app: FastAPI):
    content = document(app, "/shifts")["paths"]["/static/{name}"]["get"]["responses"]["200"]["content"]
    assert "text/css" in content and "application/json" not in content
    # The /shifts routes answer only their configured host names (docs/security.md).
    client = TestClient(app, base_url="http://127.0.0.1")
    assert client.get("/shifts/static/shifts.css").headers["content-type"].startswith("text/css")


@pytest.fixture
def token_and_store(tmp_path: Path):
    store = fresh_sample_store(tmp_path / "workshop.db")
    yield accounts.issue_token(store, ANA), store
    store.dispose()


def runs(store) -> int:
    with store.transaction(WORKSHOP_A, write=False) as s:
        return len(s.query(m.AgentRun).all())


def test_the_agent_route_requires_json(app: FastAPI, token_and_store, tmp_path: Path):
    token, store = token_and_store
    settings = Settings(var_dir=tmp_path, workshop_db=store.engine.url.render_as_string(hide_password=False))
    client = TestClient(create_app(settings), raise_server_exceptions=False)
    body = json.dumps({"note": "El TQ-7F3K2 pasó a lavado."})
    for content_type in (None, "text/plain", "application/x-www-form-urlencoded"):
        headers = {"authorization": f"Bearer {token}"} | (
            {"content-type": content_type} if content_type else {}
        )
        response = client.post("/workshop" + AGENT, content=body, headers=headers)
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_request"
        assert "Content-Type: application/json" in response.json()["error"]["message"]
    assert runs(store) == 0


def test_json_nested_past_the_recursion_limit_is_400_even_without_the_edge(token_and_store, tmp_path: Path):
    token, store = token_and_store
    settings = Settings(var_dir=tmp_path, workshop_db=store.engine.url.render_as_string(hide_password=False))
    workshop = create_workshop_app(settings, store)  # the app alone: no input guard in front of it
    client = TestClient(workshop, raise_server_exceptions=False)
    headers = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    response = client.post(AGENT, content="[" * 100_000 + "]" * 100_000, headers=headers)
    assert response.status_code == 400 and response.json()["error"]["message"] == "The body must be JSON."
    assert runs(store) == 0
