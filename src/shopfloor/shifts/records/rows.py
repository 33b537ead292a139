"""The store rows of one checked day: each valid setup with its knives and rejects, the wet-end runs, the
stops and their allocation over setups, the notes and each shift's sums; an excluded setup's raw values.

Column meanings: docs/record-format.md and docs/METRICS.md.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any
from xml.etree.ElementTree import Element

from shopfloor.shifts.plant import catalog, metrics
from shopfloor.shifts.records.structure import ShiftRecord


def raw_record(el: Element) -> str:
    """The setup's original attributes and children as JSON text (kept, never rewritten)."""
    return json.dumps(
        {
            "attributes": dict(el.attrib),
            "children": [{"tag": c.tag, "attributes": dict(c.attrib)} for c in el],
        },
        sort_keys=True,
    )


def excluded_row(day: date, shift: int, el: Element, error: str) -> dict[str, Any]:
    """The ``excluded_records`` row of a setup that failed a check: its first error and raw values."""
    return {
        "day": day,
        "shift": shift,
        "record_id": el.attrib["id"],
        "kind": "setup",
        "error": error,
        "raw": raw_record(el),
    }


def setup_row(day: date, shift: ShiftRecord, el: Element, checked: dict[str, Any]) -> dict[str, Any]:
    """The ``setups`` row of a valid setup (its stop count and minutes are filled by the allocation)."""
    a = el.attrib
    v = checked["values"]
    start, end = datetime.fromisoformat(a["start"]), datetime.fromisoformat(a["end"])
    return {
        "day": day,
        "shift": shift.number,
        "record_id": a["id"],
        "setup_id": a["setup_id"],
        "run_id": a["run"],
        "crew": shift.crew,
        "grade": a["grade"],
        "target_fpm": v["target_fpm"],
        "width_in": v["width_in"],
        "occupied_in": checked["occupied"],
        "started": start,
        "ended": end,
        "elapsed_min": (end - start).total_seconds() / 60,
        "gross_feet": v["gross_feet"],
        "net_feet": checked["net_feet"],
        "gross_sqft": v["gross_sqft"],
        "trim_sqft": v["trim_sqft"],
        "shear_feet": v["shear_feet"],
        "shear_sqft": v["shear_sqft"],
        "reject_sheets": int(sum(r["sheets"] for r in checked["rejects"])),
        "reject_sqft": checked["reject_sqft"],
        "stop_count": 0,
        "stop_min": 0.0,
        "knives": len(checked["knives"]),
        "continued": checked["continued"],
    }


def knife_rows(setup: dict[str, Any], checked: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``knives`` rows of a valid setup."""
    return [
        {
            "day": setup["day"],
            "shift": setup["shift"],
            "record_id": setup["record_id"],
            "setup_id": setup["setup_id"],
            "knife": k["level"],
            "order_id": k["order_id"],
            "grade": setup["grade"],
            "width_in": k["width_in"],
            "length_in": k["length_in"],
            "outs": int(k["outs"]),
            "cuts": int(k["cuts"]),
            "start_in": k["start_in"],
            "requested_sheets": int(k["order_quantity"]),
            "planned_sheets": int(k["planned_sheets"]),
            "produced_sheets": int(k["produced_sheets"]),
            "remaining_before": int(k["remaining_before"]),
            "remaining_after": int(k["remaining_after"]),
            "lineal_feet": checked["travel"],
        }
        for k in checked["knives"]
    ]


def reject_rows(setup: dict[str, Any], checked: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``rejects`` rows of a valid setup, numbered in file order."""
    return [
        {
            "day": setup["day"],
            "shift": setup["shift"],
            "record_id": setup["record_id"],
            "seq": seq,
            "grade": setup["grade"],
            "family": r["family"],
            "reason": r["reason"],
            "knife": r["knife"],
            "sheets": int(r["sheets"]),
            "width_in": r["width_in"],
            "length_in": r["length_in"],
            "sqft": r["sqft"],
        }
        for seq, r in enumerate(checked["rejects"])
    ]


def add_to_run(runs: dict[str, dict[str, Any]], setup: dict[str, Any]) -> None:
    """Fold a valid setup into its wet-end run's row (a run may span shifts)."""
    run = runs.setdefault(
        setup["run_id"],
        {
            "day": setup["day"],
            "run_id": setup["run_id"],
            "grade": setup["grade"],
            "target_fpm": setup["target_fpm"],
            "width_in": setup["width_in"],
            "started": setup["started"],
            "ended": setup["ended"],
            "first_shift": setup["shift"],
            "last_shift": setup["shift"],
            "setups": 0,
            "gross_feet": 0.0,
            "gross_sqft": 0.0,
        },
    )
    run["ended"] = max(run["ended"], setup["ended"])
    run["last_shift"] = setup["shift"]
    run["setups"] += 1
    run["gross_feet"] += setup["gross_feet"]
    run["gross_sqft"] += setup["gross_sqft"]


def allocation_rows(setups: list[dict[str, Any]], shift: ShiftRecord) -> list[dict[str, Any]]:
    """Allocation rows of the shift's stops over its valid setups; updates each setup's stop count
    and minutes."""
    by_id = {s["record_id"]: s for s in setups}
    stops = {s["id"]: s for s in shift.stops}
    intervals = [(s["record_id"], s["started"], s["ended"]) for s in setups]
    out = []
    for stop_id, record_id, seconds in metrics.allocate_stops(
        intervals, [(s["id"], s["start"], s["end"]) for s in shift.stops]
    ):
        stop = stops[stop_id]
        by_id[record_id]["stop_count"] += 1
        by_id[record_id]["stop_min"] += seconds / 60
        out.append(
            {
                "day": by_id[record_id]["day"],
                "shift": shift.number,
                "stop_id": stop_id,
                "record_id": record_id,
                "kind": stop["kind"],
                "place": stop["place"],
                "reason": stop["reason"],
                "minutes": seconds / 60,
            }
        )
    return out


def stop_rows(day: date, shift: ShiftRecord) -> list[dict[str, Any]]:
    """The ``stops`` rows of a shift."""
    return [
        {
            "day": day,
            "shift": shift.number,
            "stop_id": s["id"],
            "kind": s["kind"],
            "place": s["place"],
            "reason": s["reason"],
            "started": s["start"],
            "ended": s["end"],
            "minutes": (s["end"] - s["start"]).total_seconds() / 60,
            "notes": s["notes"],
        }
        for s in shift.stops
    ]


def shift_row(day: date, shift: ShiftRecord, setups: list[dict[str, Any]], excluded: int) -> dict[str, Any]:
    """The shift with its coverage and the sums of its valid setups and its stops."""
    by_kind = dict.fromkeys(catalog.STOP_KINDS, 0.0)
    for s in shift.stops:
        by_kind[s["kind"]] += (s["end"] - s["start"]).total_seconds() / 60
    return {
        "day": day,
        "shift": shift.number,
        "crew": shift.crew,
        "supervisor_slot": shift.supervisor_slot,
        "started": shift.start,
        "ended": shift.end,
        "scheduled_min": catalog.SHIFT_MINUTES,
        "setups": len(setups),
        "excluded": excluded,
        "coverage": "incomplete" if excluded else "complete",
        "paper_changes": len({u["run_id"] for u in setups}),
        "lineal_ft": sum(u["gross_feet"] for u in setups),
        "target_ft": sum(metrics.target_feet(u["target_fpm"], u["elapsed_min"]) for u in setups),
        "elapsed_min": sum(u["elapsed_min"] for u in setups),
        "stop_min_allocated": sum(u["stop_min"] for u in setups),
        "gross_sqft": sum(u["gross_sqft"] for u in setups),
        "trim_sqft": sum(u["trim_sqft"] for u in setups),
        "shear_sqft": sum(u["shear_sqft"] for u in setups),
        "reject_sqft": sum(u["reject_sqft"] for u in setups),
        "maintenance_min": by_kind["Maintenance"],
        "operator_min": by_kind["Operator"],
        "pm_min": by_kind["PM"],
        "external_min": by_kind["External"],
        "setups_above_trim_flag": sum(metrics.trim_flagged(u["trim_sqft"], u["gross_sqft"]) for u in setups),
    }
