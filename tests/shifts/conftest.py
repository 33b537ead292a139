"""A few generated weeks, ingested once per test session: enough for the audit and every scenario."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest

from shopfloor.shifts.records import generate as gen
from shopfloor.shifts.records import ingest, store


@dataclass
class Fixture:
    plan: gen.ScenarioPlan
    days: list[date]
    xml_dir: Path
    keys: Path
    db: Path
    conn: duckdb.DuckDBPyConnection


def fixture_days(plan: gen.ScenarioPlan) -> list[date]:
    """Days holding every planted scenario plus ordinary days around them (at least 30)."""
    chosen: set[date] = set()

    def week(mon: date, weekdays: tuple[int, ...] = (0, 1, 2, 3, 4)) -> None:
        chosen.update(mon + timedelta(days=i) for i in weekdays)

    week(plan.slow_weeks[0])
    assert plan.bad_lot_week is not None and plan.humid_month is not None and plan.outage_day
    week(plan.bad_lot_week)
    july = date(plan.humid_month[0], plan.humid_month[1], 15)
    week(gen.monday(july))
    week(plan.jam_weeks[0] - timedelta(days=7), (1, 2, 3))
    for w in plan.jam_weeks:
        week(w, (1, 2, 3))
    chosen.add(plan.outage_day)
    chosen.update(plan.corrupt_days)
    return sorted(chosen)


@pytest.fixture(scope="session")
def year(tmp_path_factory: pytest.TempPathFactory) -> Fixture:
    root = tmp_path_factory.mktemp("shifts")
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    days = fixture_days(plan)
    result = gen.generate(root / "xml", only=days, answer_keys=root / "keys" / gen.ANSWER_KEYS_FILENAME)
    conn = store.connect(root / "shifts.duckdb")
    report = ingest.ingest_directory(conn, root / "xml")
    assert not report.rejected, report.rejected
    return Fixture(plan, result.days, root / "xml", result.answer_keys, root / "shifts.duckdb", conn)
