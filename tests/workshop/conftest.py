"""Stores for the workshop tests: a seeded SQLite file, and a seeded PostgreSQL database used as the app role.

PostgreSQL: ``SHOPFLOOR_TEST_POSTGRES_URL`` (default the local server). One throw-away database per test
session (``sf_wrec_<random>``), dropped at the end; tests connect as the non-owner role ``sf_workshop_app`` so
row-level security applies. With ``CI`` set an unreachable server fails the tests; otherwise they skip.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from starlette.routing import Mount

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop import passwords
from shopfloor.workshop.sample import WORKSHOP_A, WORKSHOP_B, fresh_sample_store, load_sample
from shopfloor.workshop.store import Store, open_store
from shopfloor.workshop.store.engine import normalize_url
from shopfloor.workshop.store.models import Base
from shopfloor.workshop.store.rls import provision_app_role

PG_URL = os.environ.get("SHOPFLOOR_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
APP_ROLE = "sf_workshop_app"


@dataclass
class PgDatabase:
    owner_url: str
    app_url: str
    name: str


def _unreachable(reason: str) -> None:
    message = (
        f"PostgreSQL is not reachable at {PG_URL} ({reason}). Start a server or set "
        "SHOPFLOOR_TEST_POSTGRES_URL=postgresql://user@host:port/db to run the PostgreSQL tests."
    )
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session", autouse=True)
def _light_argon2() -> Iterator[None]:
    """Real argon2id with small cost parameters, so sign-in tests stay fast (production keeps the defaults)."""
    saved = passwords._HASHER
    passwords._HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    passwords.cached_hash.cache_clear()
    passwords._dummy_hash.cache_clear()
    yield
    passwords._HASHER = saved
    passwords.cached_hash.cache_clear()
    passwords._dummy_hash.cache_clear()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[PgDatabase]:
    admin_url = make_url(normalize_url(PG_URL))
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        admin.dispose()
        _unreachable(type(exc).__name__)
    name = f"sf_wrec_{secrets.token_hex(4)}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    owner_url = admin_url.set(database=name)
    app_url = owner_url.set(username=APP_ROLE, password=None)
    try:
        owner = open_store(owner_url.render_as_string(hide_password=False))
        owner.migrate()
        provision_app_role(owner.engine, APP_ROLE)
        owner.dispose()
        yield PgDatabase(
            owner_url.render_as_string(hide_password=False),
            app_url.render_as_string(hide_password=False),
            name,
        )
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(scope="session")
def pg_owner(pg_database: PgDatabase) -> Iterator[Store]:
    store = open_store(pg_database.owner_url)
    yield store
    store.dispose()


@pytest.fixture(scope="session")
def pg_app(pg_database: PgDatabase) -> Iterator[Store]:
    store = open_store(pg_database.app_url)
    yield store
    store.dispose()


def reset_pg(owner: Store) -> None:
    """Empty every table and load the sample data again (as the owner).

    Each workshop is emptied in a transaction bound to it, so this also works when the owner is subject to
    the forced policies (an owner that is not a superuser); DELETE is faster than TRUNCATE on tables this small.
    """
    for workshop_id in (WORKSHOP_A, WORKSHOP_B):
        with owner.transaction(workshop_id) as s:
            for table in reversed(Base.metadata.sorted_tables):
                s.execute(table.delete())
    load_sample(owner)


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    store = fresh_sample_store(tmp_path / "workshop.db")
    yield store
    store.dispose()


@pytest.fixture
def pg_store(pg_owner: Store, pg_app: Store) -> Store:
    reset_pg(pg_owner)
    return pg_app


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest) -> Store:
    """A freshly seeded store; the PostgreSQL one is used as the non-owner app role."""
    name = "sqlite_store" if request.param == "sqlite" else "pg_store"
    result: Store = request.getfixturevalue(name)
    return result


@pytest.fixture
def owner(store: Store, request: pytest.FixtureRequest) -> Store:
    """A connection that sees every row (SQLite: the same file; PostgreSQL: the table owner)."""
    if store.is_sqlite:
        return store
    result: Store = request.getfixturevalue("pg_owner")
    return result


@pytest.fixture
def client(store: Store, tmp_path: Path) -> Iterator[TestClient]:
    """The main app (middleware included) over ``store``, without server exceptions re-raised."""
    settings = Settings(
        workshop_db=store.engine.url.render_as_string(hide_password=False),
        var_dir=tmp_path,
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        max_body_bytes=16 * 1024,
    )
    app = create_app(settings)
    yield TestClient(app, raise_server_exceptions=False)
    for route in app.routes:
        if isinstance(route, Mount) and route.path == "/workshop":
            route.app.state.workshop.dispose()  # type: ignore[attr-defined]


def snapshot(owner: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, sorted, for before/after comparisons (read per workshop on PostgreSQL, so
    forced policies on a non-superuser owner cannot hide rows)."""
    rows: dict[str, dict[str, tuple[object, ...]]] = {t.name: {} for t in Base.metadata.sorted_tables}
    for workshop_id in (WORKSHOP_A, WORKSHOP_B):
        with owner.transaction(workshop_id, write=False) as s:
            for table in Base.metadata.sorted_tables:
                rows[table.name].update((repr(tuple(r)), tuple(r)) for r in s.execute(table.select()).all())
    out = {name: [found[k] for k in sorted(found)] for name, found in rows.items()}
    assert len(out["hats"]) >= 12 and len(out["workshops"]) == 2, "the snapshot must see both workshops"
    return out
