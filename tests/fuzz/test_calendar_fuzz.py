"""Dates across the whole calendar (0001-01-01 to 9999-12-31) in every /shifts date parameter: a day outside
the plant calendar answers 400 `bad_scope`, never a 5xx (docs/security.md, "Input limits").

A real server (uvicorn on a free loopback port) over the generated shift records, driven over HTTP: first the
calendar's ends named one by one, then a grammar fuzz that draws dates from the whole calendar."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from typing import Any
from urllib.parse import quote

import httpx2 as httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.shifts.plant.calendar import FIRST_DAY, LAST_DAY
from shopfloor.workshop.sample import fresh_sample_store
from tests.web.live import serving

ENDS = ["0001-01-01", "0001-01-03", "1899-12-31", "3000-01-01", "9999-12-30", "9999-12-31"]


@pytest.fixture(scope="module")
def base(year: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("calendar")
    year.conn.execute("CHECKPOINT")
    shutil.copyfile(year.db, tmp / "shifts.duckdb")
    fresh_sample_store(tmp / "workshop.db").dispose()
    settings = Settings(
        workshop_db=f"sqlite:///{(tmp / 'workshop.db').as_posix()}",
        shifts_db=tmp / "shifts.duckdb",
        var_dir=tmp,
        secret_key="test-secret-key-for-sessions",  # type: ignore[arg-type]
        shifts_rate_limit_per_minute=1_000_000,
    )
    with serving(create_app(settings)) as port:
        yield f"http://127.0.0.1:{port}/shifts"


def targets(day: str, other: str) -> list[str]:
    """Every route and address field of /shifts that takes a date."""
    return [
        f"/?day={day}",
        f"/?day={day}&period=week",
        f"/report?period=week&day={day}",
        f"/report?period=fiscal&day={day}&format=json",
        f"/a?measure=kpis&day={day}",
        f"/a.json?measure=kpis&day={day}",
        f"/a?measure=kpis&window=week&anchor={day}",
        f"/a?measure=kpis&window=fiscal&anchor={day}",
        f"/a?measure=compare&window=week&anchor=2026-09-14&other_anchor={other}",
        f"/a?measure=compare&window=month&anchor={day}&other_anchor=2026-09-14",
        "/a?measure=kpis&day=2026-09-14&after=" + quote(f"/a?measure=kpis&day={day}", safe=""),
    ]


def check(client: httpx.Client, path: str, day: date) -> list[str]:
    response = client.get(path)
    found = []
    if response.status_code >= 500:
        found.append(f"{path}: {response.status_code} {response.text[:200]}")
    if not FIRST_DAY <= day <= LAST_DAY and response.status_code != 400:
        found.append(f"{path}: {response.status_code}, not 400")
    if response.status_code == 400 and not response.headers["content-type"].startswith("text/html"):
        error = response.json()["error"]
        if not FIRST_DAY <= day <= LAST_DAY and error["code"] not in ("bad_scope", "bad_address"):
            found.append(f"{path}: {error['code']}")
    return found


@pytest.mark.parametrize("end", ENDS)
def test_every_date_parameter_at_the_calendars_ends_is_a_400_bad_scope(base: str, end: str) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        for path in targets(end, end):
            response = client.get(path)
            assert response.status_code == 400, (path, response.status_code, response.text[:200])
            assert response.json()["error"]["code"] == "bad_scope", (path, response.text[:200])


@pytest.mark.slow
def test_dates_drawn_from_the_whole_calendar_never_get_a_5xx(base: str) -> None:
    found: list[str] = []
    with httpx.Client(base_url=base, timeout=60) as client:

        @settings(
            max_examples=25,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(day=st.dates(), other=st.dates(), which=st.integers(0, 10))
        def send(day: date, other: date, which: int) -> None:
            path = targets(day.isoformat(), other.isoformat())[which]
            # The comparison's other window is the date that moves in that one target.
            moved = other if which == 8 else day
            found.extend(check(client, path, moved))

        send()
    assert found == [], "\n".join(found[:10])
