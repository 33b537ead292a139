"""A record store whose shifts differ: the investigation tests' hand-built days (tests/shifts/investigation/
conftest.py) with shift 3 running faster, so a comparison has a best and a worst shift; one day keeps the
hand-built tie (shifts 1 and 3 level), one has an excluded record on shift 2."""

from datetime import date

import pytest

from shopfloor.shifts.records.store import DayRows, connect, open_read_only, replace_day
from tests.shifts.investigation.conftest import WEEK_A, build_day

TIED_DAY = date(2026, 9, 11)  # the hand-built day as it is: shifts 1 and 3 both at 83.33 %
PARTIAL_DAY = date(2026, 9, 21)  # shift 2 has an excluded setup
FAST_FEET = 396_000.0  # shift 3's one setup: 396,000 ft against 900 ft/min × 480 min = 432,000 (91.67 %)


def faster_third(day_rows: DayRows) -> DayRows:
    """Shift 3's setup (and its wet-end run) at :data:`FAST_FEET` instead of 360,000 ft."""
    for setup in day_rows.tables["setups"]:
        if setup["record_id"] == "S3-00":
            setup["gross_feet"] = FAST_FEET
            setup["net_feet"] = FAST_FEET - 17.0
            setup["gross_sqft"] = FAST_FEET * setup["width_in"] / 12
    for run in day_rows.tables["wet_end_runs"]:
        if run["run_id"] == "W004":
            run["gross_feet"] = FAST_FEET
            run["gross_sqft"] = FAST_FEET * run["width_in"] / 12
    return day_rows


@pytest.fixture(scope="session")
def varied_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("varied") / "shifts.duckdb"
    conn = connect(path)
    for day in WEEK_A:
        replace_day(conn, faster_third(build_day(day)))
    replace_day(conn, build_day(TIED_DAY))
    replace_day(conn, faster_third(build_day(PARTIAL_DAY, excluded_shift=2)))
    conn.close()
    return path


@pytest.fixture()
def conn(varied_store):
    c = open_read_only(varied_store)
    yield c
    c.close()
