"""Shift Investigator, live planners: model calls and cost per run for a shift diagnosis, per provider.

Each figure replays a recorded exchange (``tests/shifts/live/recordings/<provider>/complete.json``,
hand-written in the provider's wire format) through the real SDK and the whole live run: tool loop, the
finish and the narrative; the analyst replays ``anthropic/analyst_complete.json``. Counts and costs come from
the replayed usage, priced by the model table, so they describe the recordings, not a live answer. The tools
run on a small hand-built week (2026-09-14..18), so the run needs no prepared store.
"""

from __future__ import annotations

import tempfile
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from shopfloor.agent.providers.replay import REPLAY_MODELS as MODELS
from shopfloor.agent.providers.replay import recording, replayed_provider
from shopfloor.bench import Figure
from shopfloor.shifts.live.live import investigate_live, parse_planner
from shopfloor.shifts.plant.scope import Scope
from shopfloor.shifts.records.store import DayRows, connect, open_read_only, replace_day

DAY = date(2026, 9, 16)
SCOPE = Scope(day=DAY, shift=2, include="shift")
STATE: dict[str, Any] = {}

SHIFTS_RECORDINGS = Path(__file__).resolve().parents[1] / "tests" / "shifts" / "live" / "recordings"


def _day(day: date) -> DayRows:
    """Two setups of shift 2 (the recordings' shift) and one of shifts 1 and 3, with their stops."""
    rows = DayRows(day)
    t = rows.tables
    start = datetime(day.year, day.month, day.day, 7)
    for shift in (1, 2, 3):
        t["shifts"].append(
            {
                "day": day,
                "shift": shift,
                "crew": "ABC"[shift - 1],
                "supervisor_slot": f"slot-{shift}",
                "started": start + timedelta(hours=8 * (shift - 1)),
                "ended": start + timedelta(hours=8 * shift),
                "scheduled_min": 480.0,
                "setups": 1,
                "excluded": 0,
                "coverage": "complete",
            }
        )
        run = f"W00{shift}"
        grade, target, width, feet = (
            ("275-BC", 500.0, 92.0, 180_000.0) if shift == 2 else ("26-C", 900.0, 98.0, 380_000.0)
        )
        began = start + timedelta(hours=8 * (shift - 1))
        t["setups"].append(
            {
                "day": day,
                "shift": shift,
                "record_id": f"S{shift}-00",
                "setup_id": f"C{shift}-00",
                "run_id": run,
                "crew": "ABC"[shift - 1],
                "grade": grade,
                "target_fpm": target,
                "width_in": width,
                "started": began,
                "ended": began + timedelta(hours=8),
                "elapsed_min": 480.0,
                "gross_feet": feet,
                "net_feet": feet - 17.0,
                "gross_sqft": feet * width / 12,
                "trim_sqft": feet * width / 12 * 0.03,
                "shear_feet": 17.0,
                "shear_sqft": 17 * width / 12,
                "reject_sheets": 0,
                "reject_sqft": 0.0,
                "stop_count": 1,
                "stop_min": 20.0,
                "knives": 2,
                "continued": False,
            }
        )
        stop = {
            "day": day,
            "shift": shift,
            "stop_id": f"D{shift}-1",
            "kind": "Maintenance",
            "place": "Upper knife",
            "reason": "Knife jam",
            "started": began + timedelta(hours=1),
            "ended": began + timedelta(hours=1, minutes=20),
            "minutes": 20.0,
            "notes": "synthetic reported symptom",
        }
        t["stops"].append(stop)
        t["stop_allocations"].append(
            {
                **{k: stop[k] for k in ("day", "shift", "stop_id", "kind", "place", "reason", "minutes")},
                "record_id": f"S{shift}-00",
            }
        )
        t["wet_end_runs"].append(
            {
                "day": day,
                "run_id": run,
                "grade": grade,
                "target_fpm": target,
                "width_in": width,
                "first_shift": shift,
                "last_shift": shift,
                "setups": 1,
                "gross_feet": feet,
                "gross_sqft": feet * width / 12,
            }
        )
    t["days"].append({"day": day, "file": f"{day}.xml", "sha256": "cd" * 32, "shifts": 3, "setups": 3})
    return rows


def conn() -> Any:
    if "conn" not in STATE:
        path = Path(tempfile.mkdtemp(prefix="bench-live-")) / "shifts.duckdb"
        build = connect(path)
        for offset in range(5):
            replace_day(build, _day(date(2026, 9, 14) + timedelta(days=offset)))
        build.close()
        STATE["conn"] = open_read_only(path)
    return STATE["conn"]


def diagnosis(provider: str, planner: str, scenario: str) -> dict[str, float]:
    """One replayed shift diagnosis with its narrative: model calls, cost (US cents, as the table prints three
    decimals) and tool calls per run."""
    wire = recording(SHIFTS_RECORDINGS, provider, scenario)
    sdk = replayed_provider(provider, wire)
    answer = investigate_live(
        "why was second shift slow", SCOPE, conn(), parse_planner(planner), sdk, narrative=sdk
    )
    if wire.problems or answer.status != "complete":
        raise RuntimeError(f"{provider}/{scenario}: {answer.status} {wire.problems or answer.errors}")
    usage = answer.usage
    if usage["cost_usd"] is None:  # an unknown cost is never shown as $0 (docs/pricing.md)
        raise RuntimeError(f"{provider}/{scenario}: the replayed model has no known price")
    return {
        "median": float(usage["model_calls"]),
        "cost_cents": float(usage["cost_usd"]) * 100,
        "tool_calls": float(usage["tool_calls"]),
        "tokens_in": float(usage["tokens_in"]),
        "tokens_out": float(usage["tokens_out"]),
    }


FIGURES = [
    *(
        Figure(
            f"shift diagnosis, {provider} tool loop ({MODELS[provider]}): model calls per run (cost below)",
            unit="calls",
            goal=10.0,
            measure=lambda provider=provider: diagnosis(provider, MODELS[provider], "complete"),  # type: ignore[misc]
        )
        for provider in ("anthropic", "openai", "gemini")
    ),
    Figure(
        "shift diagnosis, anthropic analyst (claude-opus-5-5): model calls per run (cost below)",
        unit="calls",
        goal=10.0,
        measure=lambda: diagnosis("anthropic", "analyst", "analyst_complete"),
    ),
]
