"""The standing fuzz gate: schemathesis generates requests from each app's OpenAPI document and sends them
through the whole server app (every middleware), on SQLite and on PostgreSQL, with and without a bearer token.
Every answer must be one its operation documents: its status, its media type and its body's schema, and never
a 5xx (``tests/fuzz/gate.py``; docs/security.md, "Input limits").
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.sample import WORKSHOP_A
from shopfloor.workshop.store import Store
from tests.fuzz.gate import run_gate

EXAMPLES_PER_OPERATION = 4  # per generation mode (valid, invalid)
BUDGET_S = 5.0  # per operation: past it, its invalid requests are left out
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


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["/workshop", "/shifts"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "bearer"])
def test_every_generated_request_gets_a_documented_status_media_type_and_body(
    server: FastAPI, store: Store, prefix: str, signed_in: bool
):
    headers = {"authorization": f"Bearer {accounts.issue_token(store, ANA_ADMIN)}"} if signed_in else {}
    # The /shifts routes answer only their configured host names (docs/security.md): 127.0.0.1 is one.
    base_url = f"http://127.0.0.1{prefix}"
    client = TestClient(server, base_url=base_url, raise_server_exceptions=False, follow_redirects=False)
    document = sub_app(server, prefix).openapi()
    report = run_gate(
        document,
        client,
        base_url,
        headers,
        examples=EXAMPLES_PER_OPERATION,
        budget_s=BUDGET_S,
    )
    operations = {f"{method.upper()} {path}" for path, item in document["paths"].items() for method in item}
    assert report.reached == operations, f"not reached: {sorted(operations - report.reached)}"
    assert report.found == [], "\n".join(report.found[:15])
