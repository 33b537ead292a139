"""The plant's fixed vocabulary: grades and targets, web widths, shifts, stop and reject catalogues.

Grades are fictional, editable settings, not standards. Everything that validates, generates or
measures records reads these tables, so one change here moves all of them together.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

# Board grade -> target speed in ft/min.
GRADE_TARGETS: dict[str, float] = {
    "26-C": 900.0,
    "32-C": 900.0,
    "55-C": 850.0,
    "200-C": 800.0,
    "275-BC": 500.0,
    "275-EB": 500.0,
}
DOUBLE_WALL = frozenset({"275-BC", "275-EB"})
WEB_WIDTHS: tuple[float, ...] = (98.0, 95.0, 92.0, 87.0)

SHIFT_MINUTES = 480.0
SHIFT_STARTS: dict[int, time] = {1: time(7, 0), 2: time(15, 0), 3: time(23, 0)}
CREWS: tuple[str, ...] = ("A", "B", "C", "D")

# Each new setup makes six full-width chops of 34 inches: 204 in = 17 ft through the shear.
SHEAR_CHOPS = 6
CHOP_LENGTH_IN = 34.0
NEW_SETUP_SHEAR_FEET = SHEAR_CHOPS * CHOP_LENGTH_IN / 12.0

SHEET_WIDTH_RANGE_IN = (12.0, 60.0)
SHEET_LENGTH_RANGE_IN = (20.0, 92.0)

STOP_KINDS: tuple[str, ...] = ("Maintenance", "Operator", "PM", "External")
STOP_PLACES: tuple[str, ...] = (
    "Upper knife",
    "Lower knife",
    "Belt",
    "Shear knife",
    "Slitter/scorer",
    "Double backer",
    "Splicer 1",
    "Splicer 2",
    "Splicer 3",
    "Splicer 4",
    "Splicer 5",
    "Glue dams",
    "Wet end",
    "Plant",
)
# A place named without its number ("the splicer") is the family of those places (docs/shifts-agent.md).
PLACE_FAMILIES: dict[str, tuple[str, ...]] = {
    "Splicers": tuple(p for p in STOP_PLACES if p.startswith("Splicer "))
}
STOP_REASONS: tuple[str, ...] = (
    "Knife jam",
    "Equipment stop",
    "Missed splice",
    "Paper break",
    "Glue skip",
    "Flute transition",
    "Scheduled maintenance",
    "Power outage",
)

# Dry-end reject family -> the sub-reasons a crew may report for it (the sub-reason is optional).
REJECT_FAMILIES: dict[str, tuple[str, ...]] = {
    "warp": ("Up warp", "Down warp"),
    "bond": ("Bond - delamination", "Bond - paper/raw-material issue"),
    "misalignment": (),
    "moisture": (),
    "bale": (),
}

MAX_NOTE_CHARS = 1000

# Owner bands (percent).
MAINTENANCE_BAND_PCT = 2.5
OPERATOR_BAND_PCT = 2.5
TRIM_FLAG_PCT = 3.25
DRY_END_FLAG_PCT = 1.0
SHEAR_GUIDANCE_PCT = (0.4, 1.0)


def day_origin(day: date) -> datetime:
    """07:00 on the production day: the start of shift 1."""
    return datetime.combine(day, SHIFT_STARTS[1])


def shift_window(day: date, shift: int) -> tuple[datetime, datetime]:
    """Start and end of a shift; shift 3 ends at 07:00 the next calendar day."""
    start = day_origin(day) + timedelta(hours=8 * (shift - 1))
    return start, start + timedelta(minutes=SHIFT_MINUTES)
