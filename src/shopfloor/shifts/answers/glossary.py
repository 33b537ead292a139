"""The records' own words as a page in another language says them: downtime reasons, places, kinds and
classes, reject families and their reported reasons, the money's items and buckets (``answers/sayings.py``,
a :class:`~shopfloor.shifts.answers.sayings.Term`). Each is looked up in the catalogue with the context
``record``; a word not listed here (a grade, a crew, a code) is said as it is.
"""

from __future__ import annotations

from shopfloor.shifts.answers.sayings import NP_, RECORD

RECORD_WORDS: tuple[str, ...] = (
    # Downtime reasons (plant/catalog.py STOP_REASONS).
    NP_(RECORD, "Knife jam"),
    NP_(RECORD, "Equipment stop"),
    NP_(RECORD, "Missed splice"),
    NP_(RECORD, "Paper break"),
    NP_(RECORD, "Glue skip"),
    NP_(RECORD, "Flute transition"),
    NP_(RECORD, "Scheduled maintenance"),
    NP_(RECORD, "Power outage"),
    # Places (STOP_PLACES) and their family.
    NP_(RECORD, "Upper knife"),
    NP_(RECORD, "Lower knife"),
    NP_(RECORD, "Belt"),
    NP_(RECORD, "Shear knife"),
    NP_(RECORD, "Slitter/scorer"),
    NP_(RECORD, "Double backer"),
    NP_(RECORD, "Splicer 1"),
    NP_(RECORD, "Splicer 2"),
    NP_(RECORD, "Splicer 3"),
    NP_(RECORD, "Splicer 4"),
    NP_(RECORD, "Splicer 5"),
    NP_(RECORD, "Splicers"),
    NP_(RECORD, "Glue dams"),
    NP_(RECORD, "Wet end"),
    NP_(RECORD, "Plant"),
    # Kinds (STOP_KINDS), also as a sentence writes them, and classes of a loss.
    NP_(RECORD, "Maintenance"),
    NP_(RECORD, "Operator"),
    NP_(RECORD, "PM"),
    NP_(RECORD, "External"),
    NP_(RECORD, "maintenance"),
    NP_(RECORD, "operator"),
    NP_(RECORD, "pm"),
    NP_(RECORD, "external"),
    NP_(RECORD, "controllable"),
    NP_(RECORD, "schedule-driven"),
    # Reject families and their reported reasons (REJECT_FAMILIES).
    NP_(RECORD, "warp"),
    NP_(RECORD, "bond"),
    NP_(RECORD, "misalignment"),
    NP_(RECORD, "moisture"),
    NP_(RECORD, "bale"),
    NP_(RECORD, "Up warp"),
    NP_(RECORD, "Down warp"),
    NP_(RECORD, "Bond - delamination"),
    NP_(RECORD, "Bond - paper/raw-material issue"),
    NP_(RECORD, "(not reported)"),
    # The money's items and the speed's buckets (tools/money.py, tools/levers.py).
    NP_(RECORD, "shear"),
    NP_(RECORD, "side trim"),
    NP_(RECORD, "trim"),
    NP_(RECORD, "dry-end warp"),
    NP_(RECORD, "dry-end bond"),
    NP_(RECORD, "dry-end misalignment"),
    NP_(RECORD, "dry-end moisture"),
    NP_(RECORD, "dry-end bale"),
    NP_(RECORD, "grade mix"),
    NP_(RECORD, "planned maintenance"),
    NP_(RECORD, "running under baseline"),
    NP_(RECORD, "setups"),
    NP_(RECORD, "stops"),
    NP_(RECORD, "runs"),
    NP_(RECORD, "reject records"),
    # Whether a contribution margin is set.
    NP_(RECORD, "margin set"),
    NP_(RECORD, "margin not set"),
)
