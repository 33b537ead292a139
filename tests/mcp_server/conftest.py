"""The stores the MCP tests read: the workshop's sample store and a small hand-built shifts record store."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from shopfloor.shifts.records.store import connect, replace_day
from shopfloor.workshop.sample import fresh_sample_store
from shopfloor.workshop.store import Store, open_store
from tests.shifts.investigation.conftest import PARTIAL_DAY, WEEK_A, WEEK_B, build_day


@pytest.fixture(scope="session")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "shifts.duckdb"
    conn = connect(path)
    for day in WEEK_B:
        replace_day(conn, build_day(day, jam2_minutes=40))
    for day in WEEK_A:
        replace_day(conn, build_day(day))
    replace_day(conn, build_day(PARTIAL_DAY, excluded_shift=2))
    conn.close()
    return path


@pytest.fixture
def workshop_db(tmp_path: Path) -> Path:
    path = tmp_path / "workshop.db"
    fresh_sample_store(path).dispose()
    return path


@pytest.fixture
def store(workshop_db: Path) -> Iterator[Store]:
    opened = open_store(f"sqlite:///{workshop_db}")
    yield opened
    opened.dispose()


@pytest.fixture
def env(workshop_db: Path, records: Path, tmp_path: Path) -> dict[str, str]:
    """The environment a ``shopfloor mcp`` process reads its settings from: nothing else of ours, and no
    provider's key (a developer's ``*_API_KEY`` must never let a test make a live call)."""
    keep = {
        k: v for k, v in os.environ.items() if not k.startswith("SHOPFLOOR_") and not k.endswith("_API_KEY")
    }
    return {
        **keep,
        "SHOPFLOOR_WORKSHOP_DB": f"sqlite:///{workshop_db}",
        "SHOPFLOOR_SHIFTS_DB": str(records),
        "SHOPFLOOR_VAR_DIR": str(tmp_path),
        "SHOPFLOOR_MODEL": "offline",
    }
