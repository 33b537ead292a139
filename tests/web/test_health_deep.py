"""`/healthz` and `/readyz` find a store that answers `SELECT 1` but not the app: a workshop database recreated
empty or left at an older migration, a corrupted SQLite file, a record store without its tables; and they keep
their answer a few seconds (docs/security.md, "No half-saved runs")."""

from __future__ import annotations

import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.workshop.sample import fresh_sample_store
from shopfloor.workshop.store import open_store
from shopfloor.workshop.store.engine import normalize_url
from shopfloor.workshop.store.migrate import downgrade
from tests.workshop.conftest import PG_URL


def health(workshop_db: str, tmp_path: Path, **overrides: Any) -> TestClient:
    settings = Settings(
        workshop_db=workshop_db,
        var_dir=tmp_path,
        shifts_db=overrides.pop("shifts_db", tmp_path / "no-shifts.duckdb"),
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        **{"health_cache_s": 0, **overrides},
    )
    return TestClient(create_app(settings), raise_server_exceptions=False)


def states(client: TestClient) -> tuple[dict[str, str], int]:
    healthz = client.get("/healthz")
    assert healthz.status_code == 200
    ready = client.get("/readyz")
    assert healthz.json()["ok"] is (ready.status_code == 200)
    return healthz.json()["stores"], ready.status_code


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    path = tmp_path / "workshop.db"
    fresh_sample_store(path).dispose()
    return path


def test_a_sound_sqlite_store_is_ok(sqlite_file: Path, tmp_path: Path) -> None:
    stores, ready = states(health(f"sqlite:///{sqlite_file}", tmp_path))
    assert stores["workshop"] == "ok" and ready == 503  # the record store was never prepared here


def test_a_sqlite_file_recreated_empty_is_a_schema_mismatch(sqlite_file: Path, tmp_path: Path) -> None:
    sqlite_file.unlink()
    sqlite_file.touch()  # a new, empty database: SELECT 1 answers
    stores, ready = states(health(f"sqlite:///{sqlite_file}", tmp_path))
    assert stores["workshop"] == "schema_mismatch" and ready == 503


def test_a_sqlite_store_at_an_older_migration_is_a_schema_mismatch(sqlite_file: Path, tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{sqlite_file}")
    downgrade(store.engine, "0006")
    store.dispose()
    stores, _ = states(health(f"sqlite:///{sqlite_file}", tmp_path))
    assert stores["workshop"] == "schema_mismatch"


def test_a_corrupted_sqlite_file_is_not_ok(sqlite_file: Path, tmp_path: Path) -> None:
    data = bytearray(sqlite_file.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    data[page:] = b"\xa5" * (len(data) - page)  # every page but the first (the schema) is garbage
    sqlite_file.write_bytes(bytes(data))
    stores, ready = states(health(f"sqlite:///{sqlite_file}", tmp_path))
    assert stores["workshop"] == "store_unavailable" and ready == 503


def test_a_record_store_without_its_tables_is_not_ok(sqlite_file: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()  # a DuckDB file that opens, with no tables
    stores, ready = states(health(f"sqlite:///{sqlite_file}", tmp_path, shifts_db=empty))
    assert stores["shifts"] == "store_unavailable" and ready == 503
    wrong = tmp_path / "wrong.duckdb"
    conn = duckdb.connect(str(wrong))
    conn.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '0')")
    conn.close()
    stores, _ = states(health(f"sqlite:///{sqlite_file}", tmp_path, shifts_db=wrong))
    assert stores["shifts"] == "schema_mismatch"


def test_a_prepared_record_store_is_ok(sqlite_file: Path, tmp_path: Path, year: Any) -> None:
    year.conn.execute("CHECKPOINT")
    shutil.copyfile(year.db, tmp_path / "shifts.duckdb")
    stores, ready = states(health(f"sqlite:///{sqlite_file}", tmp_path, shifts_db=tmp_path / "shifts.duckdb"))
    assert stores == {"shifts": "ok", "workshop": "ok"} and ready == 200


def test_the_answer_is_kept_for_the_cache_period(sqlite_file: Path, tmp_path: Path) -> None:
    client = health(f"sqlite:///{sqlite_file}", tmp_path, health_cache_s=1.5)
    assert client.get("/healthz").json()["stores"]["workshop"] == "ok"
    store = open_store(f"sqlite:///{sqlite_file}")
    downgrade(store.engine, "0006")
    store.dispose()
    started = time.monotonic()
    kept = client.get("/healthz").json()["stores"]["workshop"]
    if time.monotonic() - started < 1.0:
        assert kept == "ok"  # the last answer, no new reads
    time.sleep(1.6)
    assert client.get("/healthz").json()["stores"]["workshop"] == "schema_mismatch"


@pytest.fixture
def empty_pg_database() -> Iterator[str]:
    admin = create_engine(make_url(normalize_url(PG_URL)), isolation_level="AUTOCOMMIT")
    name = f"sf_health_{secrets.token_hex(4)}"
    try:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    except Exception as exc:  # no server here: the PostgreSQL tests skip
        admin.dispose()
        pytest.skip(f"PostgreSQL is not reachable ({type(exc).__name__})")
    try:
        yield make_url(normalize_url(PG_URL)).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.mark.postgres
def test_a_postgresql_database_recreated_empty_is_a_schema_mismatch(
    empty_pg_database: str, tmp_path: Path
) -> None:
    stores, ready = states(health(empty_pg_database, tmp_path))
    assert stores["workshop"] == "schema_mismatch" and ready == 503


@pytest.mark.postgres
def test_a_postgresql_store_at_the_newest_migration_is_ok_and_an_older_one_is_not(
    empty_pg_database: str, tmp_path: Path
) -> None:
    store = open_store(empty_pg_database)
    store.migrate()
    assert states(health(empty_pg_database, tmp_path))[0]["workshop"] == "ok"
    downgrade(store.engine, "0006")
    store.dispose()
    assert states(health(empty_pg_database, tmp_path))[0]["workshop"] == "schema_mismatch"
