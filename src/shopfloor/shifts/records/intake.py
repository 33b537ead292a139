"""Safe intake of one XML day file: untrusted bytes in, store rows (or a clear rejection) out.

Two layers. Structural faults (size, encoding, DTDs and entities, depth, element count, unknown
elements or attributes, shift windows, partitions, overlapping stops, catalogue values) reject the day
whole: ``DayRejected`` is raised and nothing is written. A setup whose numbers fail a check is
**excluded and kept**: it goes to ``excluded_records`` with its raw values and the first error, and its
shift's coverage becomes ``incomplete``. See docs/record-format.md, section 3.

This module is the intake's face (``read_day``); the pieces are ``fields`` (formats, limits, the two
refusals), ``xml_guard`` (bytes and XML), ``structure`` (what rejects the day), ``setup_checks`` (what
excludes a setup) and ``rows`` (the store rows).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from shopfloor.shifts.records import rows as build
from shopfloor.shifts.records.fields import (
    MAX_DAY_BYTES,
    DayRejected,
    SetupExcluded,
    close,
    parse_date,
    parse_decimal,
    parse_integer,
    parse_timestamp,
)
from shopfloor.shifts.records.rows import raw_record
from shopfloor.shifts.records.setup_checks import Ledger, check_setup
from shopfloor.shifts.records.store import DayRows
from shopfloor.shifts.records.structure import ShiftRecord, parse_structure
from shopfloor.shifts.records.xml_guard import parse_tree, preflight

__all__ = [
    "MAX_DAY_BYTES",
    "DayRejected",
    "IntakeResult",
    "Ledger",
    "SetupExcluded",
    "ShiftRecord",
    "check_setup",
    "close",
    "iter_day_files",
    "parse_date",
    "parse_decimal",
    "parse_integer",
    "parse_structure",
    "parse_timestamp",
    "parse_tree",
    "preflight",
    "raw_record",
    "read_day",
]


@dataclass
class IntakeResult:
    """A day ready to write, with what was excluded."""

    day: date
    rows: DayRows
    sha256: str
    setups: int
    excluded: list[dict[str, Any]]


def read_day(raw: bytes, *, file_name: str | None = None, file_day: date | None = None) -> IntakeResult:
    """Turn one day file into store rows. Raises ``DayRejected`` for a structural fault."""
    root = parse_tree(raw)
    day, attrs, shifts = parse_structure(root, file_day)
    rows = DayRows(day)
    t = rows.tables
    ledger = Ledger()
    runs: dict[str, dict[str, Any]] = {}
    for shift in shifts:
        _add_shift(t, day, shift, ledger, runs)
    t["wet_end_runs"] = list(runs.values())
    digest = hashlib.sha256(raw).hexdigest()
    valid = len(t["setups"])
    t["days"] = [
        {
            "day": day,
            "file": file_name,
            "sha256": digest,
            "bytes": len(raw),
            "generator": attrs.get("generator"),
            "seed": parse_integer(attrs["seed"]) if "seed" in attrs else None,
            "shifts": 3,
            "setups": valid,
            "excluded": len(t["excluded_records"]),
            "stops": len(t["stops"]),
            "ingested_at": datetime.now().replace(microsecond=0),
        }
    ]
    return IntakeResult(day, rows, digest, valid, list(t["excluded_records"]))


def _add_shift(
    t: dict[str, list[dict[str, Any]]],
    day: date,
    shift: ShiftRecord,
    ledger: Ledger,
    runs: dict[str, dict[str, Any]],
) -> None:
    """Check the shift's setups in file order and add the shift's rows to the day's tables."""
    setups: list[dict[str, Any]] = []
    excluded = 0
    for el in shift.setups:
        try:
            checked = check_setup(el, ledger)
        except SetupExcluded as exc:
            excluded += 1
            t["excluded_records"].append(build.excluded_row(day, shift.number, el, str(exc)))
            continue
        setup = build.setup_row(day, shift, el, checked)
        setups.append(setup)
        t["knives"].extend(build.knife_rows(setup, checked))
        t["rejects"].extend(build.reject_rows(setup, checked))
        build.add_to_run(runs, setup)
    t["stop_allocations"].extend(build.allocation_rows(setups, shift))
    t["setups"].extend(setups)
    t["stops"].extend(build.stop_rows(day, shift))
    t["notes"].extend(
        {"day": day, "shift": shift.number, "seq": i, "text": n} for i, n in enumerate(shift.notes)
    )
    t["shifts"].append(build.shift_row(day, shift, setups, excluded))


def iter_day_files(names: Iterable[str]) -> list[str]:
    """The ``YYYY-MM-DD.xml`` names among ``names``, in date order."""
    pattern = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\.xml")
    return sorted(n for n in names if pattern.fullmatch(n))
