"""The standing fuzz gate: schemathesis generates requests from each app's OpenAPI document and sends them
through the whole server app (every middleware), on SQLite and on PostgreSQL, with and without a bearer token.
No answer may be a 5xx, and every error body is the one envelope (docs/security.md, "Input limits").

Bounded so it stays a gate and not a soak: a fixed number of examples per operation and generation mode,
derandomized (the same requests every run, so a failure reproduces), and a time limit per configuration.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store

EXAMPLES_PER_OPERATION = 6
TIME_LIMIT_S = 15.0  # per configuration (app × store × authentication); four run per store
ANA_ADMIN = domain.Actor("u-admin", WORKSHOP_A, "admin", "Lucía Sarmiento")


@pytest.fixture
def server(store: Store, year: Any, tmp_path: Path) -> Iterator[FastAPI]:
    """The server app over a seeded workshop store and a prepared record store.

    The record store is a copy: the session's fixture keeps a writer's connection open on its own file, and
    DuckDB refuses a second connection of another kind to a file in the same process.
    """
    shifts_db = tmp_path / "shifts.duckdb"
    year.conn.execute("CHECKPOINT")  # everything in the file itself, none of it in the writer's log
    shutil.copyfile(year.db, shifts_db)
    app = create_app(
        Settings(
            workshop_db=store.engine.url.render_as_string(hide_password=False),
            shifts_db=shifts_db,
            var_dir=tmp_path,
            secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
            workshop_rate_limit_per_hour=100_000,
        )
    )
    yield app
    for route in app.routes:
        if isinstance(route, Mount) and route.path == "/workshop":
            route.app.state.workshop.dispose()  # type: ignore[attr-defined]


def sub_app(app: FastAPI, prefix: str) -> FastAPI:
    for route in app.routes:
        if isinstance(route, Mount) and route.path == prefix and isinstance(route.app, FastAPI):
            return route.app
    raise AssertionError(f"no app mounted at {prefix}")


def problems(response: Any) -> list[str]:
    """What is wrong with one answer: a 5xx, or an error body that is not the envelope (HTML pages aside)."""
    found = []
    if response.status_code >= 500:
        found.append(f"{response.status_code}: {response.text[:300]}")
    # A page answers a person with a page (the sign-in form again, say); every other error is the envelope.
    if response.status_code >= 400 and not response.headers.get("content-type", "").startswith("text/html"):
        try:
            body = response.json()
        except ValueError:
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        if not (isinstance(error, dict) and {"code", "message", "request_id"} <= set(error)):
            found.append(f"{response.status_code} not in the envelope: {response.text[:300]}")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["/workshop", "/shifts"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "bearer"])
def test_no_generated_request_gets_a_5xx_or_an_error_outside_the_envelope(
    server: FastAPI, store: Store, prefix: str, signed_in: bool
):
    headers = {"authorization": f"Bearer {accounts.issue_token(store, ANA_ADMIN)}"} if signed_in else {}
    schema = schemathesis.openapi.from_dict(sub_app(server, prefix).openapi())
    # The /shifts routes answer only their configured host names (docs/security.md): 127.0.0.1 is one.
    client = TestClient(server, base_url=f"http://127.0.0.1{prefix}", raise_server_exceptions=False)
    found: list[str] = []
    sent = 0
    started = time.monotonic()
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            if time.monotonic() - started > TIME_LIMIT_S:
                break

            @settings(
                max_examples=EXAMPLES_PER_OPERATION,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            @given(case=operation.as_strategy(generation_mode=mode))
            def send(case: Any) -> None:
                nonlocal sent
                kwargs = case.as_transport_kwargs(base_url=f"http://127.0.0.1{prefix}", headers=headers)
                # Cookies go on the client (one request's cookies only), not per request.
                client.cookies.clear()
                for name, value in (kwargs.pop("cookies", None) or {}).items():
                    client.cookies.set(name, str(value))
                if isinstance(kwargs.get("data"), (bytes, str)):
                    kwargs["content"] = kwargs.pop("data")  # raw bodies are content, form fields are data
                response = client.request(**{k: v for k, v in kwargs.items() if k in REQUEST_KEYS})
                sent += 1
                found.extend(f"{case.method} {case.formatted_path}: {p}" for p in problems(response))

            try:
                send()
            except Unsatisfiable:
                pass  # nothing in this operation can be made invalid (no parameters, no body)
    assert sent >= 20, f"only {sent} requests were sent"
    assert found == [], "\n".join(found[:10])


REQUEST_KEYS = {"method", "url", "params", "headers", "json", "content", "data", "files"}
