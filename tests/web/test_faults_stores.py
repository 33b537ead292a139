"""A store that is down, dropped, full or read-only answers 503/507 in the envelope, changes nothing, and
`/healthz` and `/readyz` say which store is down (docs/security.md, "No half-saved runs")."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, func, select, text
from sqlalchemy.engine import make_url
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import accounts, domain
from shopfloor.workshop.deps import WorkshopState
from shopfloor.workshop.sample import WORKSHOP_A, fresh_sample_store, load_sample
from shopfloor.workshop.store import Store, open_store
from shopfloor.workshop.store import models as m
from shopfloor.workshop.store.engine import normalize_url
from tests.web.live import free_port
from tests.workshop.conftest import PG_URL, snapshot

ANA = domain.Actor("u-ana", WORKSHOP_A, "member", "Ana Morocho")
AGENT = "/workshop/functions/v1/workshop-agent"
NOTE = {"note": "El TQ-7F3K2 pasó a lavado.", "input_mode": "typed"}
LOGIN = {"email": "ana@taller.example", "password": "ana-toquilla-demo"}


def settings_for(url: str, tmp_path: Path) -> Settings:
    return Settings(
        workshop_db=url,
        var_dir=tmp_path,
        shifts_db=tmp_path / "no-shifts.duckdb",
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        health_cache_s=0,  # each health answer reads the stores again
    )


def client_for(settings: Settings, store: Store | None = None) -> TestClient:
    app = create_app(settings)
    if store is not None:  # the workshop app over this very store (a test that shapes its engine)
        for route in app.routes:
            if isinstance(route, Mount) and route.path == "/workshop":
                route.app.state.workshop = WorkshopState(settings, store)  # type: ignore[attr-defined]
    return TestClient(app, raise_server_exceptions=False)


def assert_fault(response: Any, status: int, code: str, retry: bool) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "request_id"}
    assert body["error"]["code"] == code
    assert ("retry-after" in response.headers) is retry
    if retry:
        assert int(response.headers["retry-after"]) > 0


def every_workshop_route(client: TestClient, headers: dict[str, str]) -> list[Any]:
    return [
        client.post("/workshop/auth/login", json=LOGIN),
        client.get("/workshop/api/hats", headers=headers),
        client.get("/workshop/api/weavers", headers=headers),
        client.get("/workshop/api/proposals", headers=headers),
        client.post(AGENT, json=NOTE, headers=headers),
        client.post("/workshop/functions/v1/apply-proposals", json={"decisions": []}, headers=headers),
    ]


def test_a_postgresql_server_that_refuses_connections_is_503_with_retry_after(tmp_path: Path):
    url = f"postgresql://postgres@127.0.0.1:{free_port()}/test"  # nobody listens there
    with client_for(settings_for(url, tmp_path)) as client:
        headers = {"authorization": f"Bearer {accounts.TOKEN_PREFIX}{secrets.token_urlsafe(32)}"}
        for response in every_workshop_route(client, headers):
            assert_fault(response, 503, "store_unavailable", retry=True)
        health = client.get("/healthz")
        assert health.status_code == 200 and health.json()["ok"] is False
        assert health.json()["stores"]["workshop"] == "store_unavailable"
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["error"]["code"] == "store_unavailable"
        assert "workshop" in ready.json()["error"]["message"]
        assert ready.json()["stores"]["workshop"] == "store_unavailable"


@pytest.fixture
def dropped_database(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A migrated, seeded PostgreSQL database and a token into it; the test drops the database."""
    admin = create_engine(make_url(normalize_url(PG_URL)), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception:
        admin.dispose()
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}")
    name = f"sf_drop_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = make_url(normalize_url(PG_URL)).set(database=name).render_as_string(hide_password=False)
    store = open_store(url)
    store.migrate()
    load_sample(store)
    token = accounts.issue_token(store, ANA)
    store.dispose()
    try:
        yield url, token
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.mark.postgres
def test_a_database_dropped_under_the_server_is_503(tmp_path: Path, dropped_database: tuple[str, str]):
    url, token = dropped_database
    headers = {"authorization": f"Bearer {token}"}
    with client_for(settings_for(url, tmp_path)) as client:
        assert client.get("/workshop/api/hats", headers=headers).status_code == 200
        assert client.get("/readyz").json()["stores"]["workshop"] == "ok"
        admin = create_engine(make_url(normalize_url(PG_URL)), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE "{make_url(url).database}" WITH (FORCE)')
        admin.dispose()
        for response in every_workshop_route(client, headers):
            assert_fault(response, 503, "store_unavailable", retry=True)
        assert client.get("/healthz").json()["stores"]["workshop"] == "store_unavailable"
        assert client.get("/readyz").status_code == 503


def test_a_read_only_sqlite_file_reads_but_refuses_writes_with_503(tmp_path: Path):
    path = tmp_path / "workshop.db"
    writable = fresh_sample_store(path)
    token = accounts.issue_token(writable, ANA)
    before = snapshot(writable)
    read_only = f"sqlite:///file:{path}?mode=ro&uri=true"
    headers = {"authorization": f"Bearer {token}"}
    with client_for(settings_for(read_only, tmp_path)) as client:
        assert client.get("/workshop/api/hats", headers=headers).status_code == 200
        assert_fault(client.post(AGENT, json=NOTE, headers=headers), 503, "store_read_only", retry=True)
        assert_fault(
            client.post("/workshop/auth/tokens", json={"name": "x"}, headers=headers),
            503,
            "store_read_only",
            retry=True,
        )
        assert client.get("/healthz").json()["stores"]["workshop"] == "ok"  # it answers reads
    assert snapshot(writable) == before
    writable.dispose()


def test_a_full_sqlite_file_is_507_and_nothing_is_half_written(tmp_path: Path):
    path = tmp_path / "workshop.db"
    writable = fresh_sample_store(path)
    token = accounts.issue_token(writable, ANA)
    writable.dispose()
    full = open_store(f"sqlite:///{path}")

    @event.listens_for(full.engine, "connect")
    def _no_room(dbapi_connection: Any, _record: Any) -> None:
        # SQLite's own limit on the file's pages: past it every write fails with SQLITE_FULL, as on a full disk.
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count={pages + 2}")

    with full.engine.begin() as conn:  # use up the last pages
        conn.exec_driver_sql("CREATE TABLE filler (x BLOB)")
        try:
            for _ in range(200):
                conn.exec_driver_sql("INSERT INTO filler VALUES (randomblob(2000))")
        except Exception as error:
            assert "full" in str(error)
    headers = {"authorization": f"Bearer {token}"}
    long_note = {"note": "El TQ-7F3K2 pasó a lavado. " + "x" * 900, "input_mode": "typed"}
    with client_for(settings_for(f"sqlite:///{path}", tmp_path), full) as client:
        statuses = []
        for _ in range(8):
            response = client.post(AGENT, json=long_note, headers=headers)
            statuses.append(response.status_code)
            if response.status_code == 507:
                assert_fault(response, 507, "store_full", retry=False)
                break
        assert statuses[-1] == 507 and set(statuses) <= {200, 507}, statuses
    with full.transaction(WORKSHOP_A, write=False) as s:
        runs = s.scalars(select(m.AgentRun).where(m.AgentRun.input.like("%xxxx%"))).all()
        proposals = {
            r.id: s.scalar(select(func.count()).select_from(m.Proposal).where(m.Proposal.run_id == r.id))
            for r in runs
        }
    # Every run that answered 200 is whole; the refused one saved no proposal: either it left no run row, or
    # its row was marked failed when the final save did not fit.
    assert [r.status for r in runs[: len(statuses) - 1]] == ["proposed"] * (len(statuses) - 1)
    assert all(proposals[r.id] > 0 for r in runs if r.status == "proposed")
    assert [r.status for r in runs[len(statuses) - 1 :]] in ([], ["failed"])
    assert all(proposals[r.id] == 0 for r in runs if r.status != "proposed")
    full.dispose()
