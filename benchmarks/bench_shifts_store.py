"""Shift record store: build the default year, its size, and KPI queries over it (medians).

The year is generated and loaded once into a temporary directory; the query figures reuse that store.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from shopfloor.bench import Figure
from shopfloor.shifts.records import audit, ingest, intake, store
from shopfloor.shifts.records import generate as gen

STATE: dict[str, Any] = {}


def build_year() -> dict[str, float]:
    """Generate + ingest the full default year once; report the parts and the on-demand alternative."""
    root = Path(tempfile.mkdtemp(prefix="bench-shifts-"))
    t0 = time.perf_counter()
    result = gen.generate(root / "xml", answer_keys=root / "keys.json")
    t1 = time.perf_counter()
    conn = store.connect(root / "shifts.duckdb")
    report = ingest.ingest_directory(conn, root / "xml")
    conn.execute("CHECKPOINT")
    t2 = time.perf_counter()
    assert not report.rejected
    # The alternative: build a day only when it is asked for (simulate + write + parse + validate).
    plan = gen.plan_scenarios(gen.DEFAULT_SEED, gen.DEFAULT_AS_OF)
    samples = []
    for day in result.days[:: max(1, len(result.days) // 15)]:
        s0 = time.perf_counter()
        intake.read_day(gen.to_xml(gen.simulate_day(day, gen.DEFAULT_SEED, plan)).encode())
        samples.append((time.perf_counter() - s0) * 1000)
    STATE.update(conn=conn, first=result.days[0], last=result.days[-1], root=root)
    db_file = root / "shifts.duckdb"
    per_day = statistics.median(samples)
    return {
        "median": t2 - t0,
        "generate_s": t1 - t0,
        "ingest_s": t2 - t1,
        "days": float(len(result.days)),
        "on_demand_one_day_ms": per_day,
        "on_demand_whole_year_s": per_day * len(result.days) / 1000,
        "store_mb": db_file.stat().st_size / 1e6,
        "xml_mb": sum(p.stat().st_size for p in (root / "xml").glob("*.xml")) / 1e6,
    }


def store_size() -> dict[str, float]:
    if "conn" not in STATE:
        build_year()
    return {"median": (STATE["root"] / "shifts.duckdb").stat().st_size / 1e6}


def year_by_shift() -> None:
    audit.window_kpis(STATE["conn"], STATE["first"], STATE["last"], group="shift")


def single_day() -> None:
    day: date = STATE["last"]
    audit.window_kpis(STATE["conn"], day, day, group="shift")


def ensure_store() -> None:
    if "conn" not in STATE:
        build_year()


FIGURES = [
    Figure("generate + ingest the default year", measure=build_year, unit="s", goal=60.0),
    Figure("store size on disk", measure=store_size, unit="MB"),
    Figure(
        "full-year KPI aggregation by shift",
        year_by_shift,
        repeat=15,
        unit="ms",
        goal=300.0,
        setup=ensure_store,
    ),
    Figure("single-day KPI query", single_day, repeat=50, unit="ms", goal=10.0, setup=ensure_store),
]
