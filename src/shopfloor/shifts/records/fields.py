"""The day file's field formats, limits and attribute lists, and the intake's two refusals.

Shared by the three layers of the intake (docs/record-format.md, section 3): ``xml_guard`` (bytes and XML),
``structure`` (what rejects the day) and ``setup_checks`` (what excludes one setup).
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime

MAX_DAY_BYTES = 1_000_000
MAX_DEPTH = 8
MAX_ELEMENTS = 4000
REL_TOL = 1e-6
ABS_TOL = 0.01

ROOT_ATTRS = {"version", "synthetic", "production_day", "clock"}
ROOT_OPTIONAL = {"generator", "seed"}
SHIFT_ATTRS = {"number", "start", "end", "crew", "supervisor_slot"}
# Every numeric attribute is parsed and checked the same way; the others are names, ids and times.
SETUP_NUMBERS = (
    "target_fpm",
    "width_in",
    "gross_feet",
    "gross_sqft",
    "trim_sqft",
    "shear_feet",
    "shear_sqft",
)
SETUP_ATTRS = {"id", "setup_id", "run", "grade", "start", "end", "continued", *SETUP_NUMBERS}
KNIFE_NUMBERS = (
    "width_in",
    "length_in",
    "outs",
    "cuts",
    "start_in",
    "order_quantity",
    "planned_sheets",
    "produced_sheets",
    "remaining_before",
    "remaining_after",
)
KNIFE_ATTRS = {"level", "stacker", "order_id", *KNIFE_NUMBERS}
# Counts of sheets and strokes: written as plain integers (``outs="1.0"`` is not one; docs/record-format.md).
KNIFE_INTEGERS = frozenset(
    {
        "outs",
        "cuts",
        "order_quantity",
        "planned_sheets",
        "produced_sheets",
        "remaining_before",
        "remaining_after",
    }
)
REJECT_NUMBERS = ("sheets", "sqft")
REJECT_ATTRS = {"family", "reason", "knife", *REJECT_NUMBERS}
STOP_ATTRS = {"id", "kind", "place", "reason", "start", "end", "notes"}
CHILDREN = {
    "production": {"shift"},
    "shift": {"note", "setup", "stop"},
    "setup": {"knife", "reject"},
    "knife": set(),
    "reject": set(),
    "stop": set(),
    "note": set(),
}
# The field formats, matched whole (``fullmatch``: no trailing newline slips past ``$``) and in ASCII digits
# only: ``\d`` and ``float()`` also take other scripts' digits, ``_`` separators, exponents and blanks.
TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
DECIMAL = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,15})?")
INTEGER = re.compile(r"[0-9]{1,18}")
XML_DECL_ENCODING = re.compile(rb"^<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


class DayRejected(Exception):
    """The day file has a structural fault; nothing of it is written."""


class SetupExcluded(Exception):
    """A setup failed a per-setup check (the message is the recorded error)."""


def parse_timestamp(text: str) -> datetime:
    """A naive ``YYYY-MM-DDTHH:MM:SS[.ffffff]`` time, strictly; raises ``ValueError`` with the reason."""
    if not TIMESTAMP.fullmatch(text):
        raise ValueError("is not a naive YYYY-MM-DDTHH:MM:SS[.fff] time")
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ValueError("is not a real time (a month, day or hour out of range)") from None


def parse_date(text: str) -> date:
    """A ``YYYY-MM-DD`` date, strictly; raises ``ValueError`` with the reason."""
    if not DATE.fullmatch(text):
        raise ValueError("is not a YYYY-MM-DD date")
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError("is not a real date (a month or day out of range)") from None


def parse_decimal(text: str) -> float:
    """A non-negative decimal written with ASCII digits and at most one point; raises ``ValueError``."""
    if not DECIMAL.fullmatch(text):
        raise ValueError("is not a plain non-negative decimal number")
    return float(text)


def parse_integer(text: str) -> int:
    """A non-negative integer written with ASCII digits only; raises ``ValueError``."""
    if not INTEGER.fullmatch(text):
        raise ValueError("is not a plain non-negative integer")
    return int(text)


def close(a: float, b: float) -> bool:
    """Equality with the intake's tolerance (values are written with at most four decimals)."""
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
