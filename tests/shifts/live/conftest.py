"""The hand-built record store of tests/shifts/investigation, and the recorded exchanges of
``recordings/<provider>/`` served to the real SDKs (``shopfloor.agent.providers.replay``)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from shopfloor.agent.providers.replay import TaggedReplay, recording, replayed_provider
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records.store import connect, open_read_only, replace_day
from tests.shifts.investigation.conftest import WEEK_A, WEEK_B, build_day

DAY = date(2026, 9, 16)
SHIFT2 = Scope(day=DAY, shift=2, include="shift")
PROVIDERS = ("anthropic", "openai", "gemini")
RECORDINGS = Path(__file__).parent / "recordings"
sdk_provider = replayed_provider


def replay(provider: str, scenario: str) -> TaggedReplay:
    """The recording ``recordings/<provider>/<scenario>.json``."""
    return recording(RECORDINGS, provider, scenario)


@pytest.fixture(scope="session")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("live-store") / "shifts.duckdb"
    conn = connect(path)
    for day in WEEK_B:
        replace_day(conn, build_day(day, jam2_minutes=40))
    for day in WEEK_A:
        replace_day(conn, build_day(day))
    conn.close()
    return path


@pytest.fixture()
def conn(store_path):
    c = open_read_only(store_path)
    yield c
    c.close()
