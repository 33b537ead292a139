"""The ends of the calendar: a scope day the plant calendar cannot hold is a clear 400, never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts.plant.calendar import PERIODS
from shopfloor.shifts.plant.scope import Scope, ScopeError


@pytest.fixture(scope="module")
def client(year: Any, tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    tmp = tmp_path_factory.mktemp("edges")
    settings = Settings(var_dir=tmp, workshop_db=f"sqlite:///{tmp / 'w.db'}", shifts_db=year.db)
    # The /shifts routes answer only their configured host names (docs/security.md).
    return TestClient(create_app(settings), base_url="http://127.0.0.1", raise_server_exceptions=False)


@pytest.mark.parametrize("day", ["0001-01-01", "0001-01-03", "9999-12-30", "9999-12-31", "1899-12-31"])
@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("path", ["/shifts/report", "/shifts/q"])
def test_a_day_outside_the_calendar_is_a_clear_400(client: TestClient, day: str, period: str, path: str):
    params = {"day": day, "period": period, "question": "why was the shift bad"}
    response = client.get(path, params=params)
    assert response.status_code == 400, response.text
    named = "period" if (path, period) == ("/shifts/report", "day") else "day"  # reports have no day period
    assert named in response.json()["error"]["message"]


def test_the_calendar_ends_are_named():
    assert Scope.parse("1900-01-01").day.isoformat() == "1900-01-01"
    assert Scope.parse("2999-12-31", period=PERIODS[-1]).day.isoformat() == "2999-12-31"
    with pytest.raises(ScopeError, match="between 1900-01-01 and 2999-12-31"):
        Scope.parse("9999-12-31")
