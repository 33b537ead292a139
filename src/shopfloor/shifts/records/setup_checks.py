"""Layer 3 of the intake: the per-setup checks, in their documented order (docs/record-format.md, section 3).

A setup whose numbers fail a check is excluded and kept: ``check_setup`` raises ``SetupExcluded`` with the
first failure. Each numbered check is one function that reads values and raises or returns; only
``check_setup`` touches the day's ``Ledger``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from shopfloor.shifts.plant import catalog, metrics
from shopfloor.shifts.records.fields import (
    ABS_TOL,
    KNIFE_INTEGERS,
    KNIFE_NUMBERS,
    REJECT_NUMBERS,
    REL_TOL,
    SETUP_NUMBERS,
    SetupExcluded,
    close,
    parse_decimal,
    parse_integer,
)

# The order ledger's sheet counts on a knife, each written as a plain integer.
ORDER_COUNTS = ("order_quantity", "planned_sheets", "produced_sheets", "remaining_before", "remaining_after")


@dataclass
class Ledger:
    """The day's order ledger and wet-end runs, advanced only by setups that pass every check.

    ``setup_ids_seen`` is the exception: a setup id counts as seen once its record reaches the shear check
    (check 9), whether or not the later checks pass.
    """

    orders: dict[str, tuple[tuple[Any, ...], int]] = field(default_factory=dict)
    runs: dict[str, tuple[str, float, float]] = field(default_factory=dict)
    setup_ids_seen: set[str] = field(default_factory=set)


def _number(attrs: dict[str, str], key: str, where: str, integer: bool = False) -> float:
    if key not in attrs:
        raise SetupExcluded(f"Missing {where}{key}")
    try:
        value = float(parse_integer(attrs[key])) if integer else parse_decimal(attrs[key])
    except ValueError:
        raise SetupExcluded(f"Invalid {where}{key}") from None
    if not math.isfinite(value) or value < 0:
        raise SetupExcluded(f"Invalid {where}{key}")
    return value


def _integer(value: float) -> bool:
    return float(value).is_integer()


# --------------------------------------------------------------------------------------------
# 1. numbers


def require_names(attrs: dict[str, str]) -> None:
    """The setup names its setup, its wet-end run and its grade."""
    for key in ("setup_id", "run", "grade"):
        if not attrs.get(key):
            raise SetupExcluded(f"Missing {key}")


def setup_values(attrs: dict[str, str]) -> dict[str, float]:
    """The setup's numeric attributes, each read strictly."""
    return {key: _number(attrs, key, "") for key in SETUP_NUMBERS}


def knife_values(knife_el: Element) -> dict[str, Any]:
    """One knife's numbers (counts as integers) and its level, stacker and order id."""
    level = knife_el.attrib.get("level", "?")
    kv: dict[str, Any] = {
        key: _number(knife_el.attrib, key, f"{level} knife ", key in KNIFE_INTEGERS) for key in KNIFE_NUMBERS
    }
    for key in ("level", "stacker", "order_id"):
        if not knife_el.attrib.get(key):
            raise SetupExcluded(f"Missing {level} knife {key}")
        kv[key] = knife_el.attrib[key]
    return kv


def reject_values(reject_el: Element) -> dict[str, Any]:
    """One reject's sheets and area, with its family, reason and knife as written."""
    rv: dict[str, Any] = {
        key: _number(reject_el.attrib, key, "reject ", key == "sheets") for key in REJECT_NUMBERS
    }
    rv["family"] = reject_el.attrib.get("family")
    rv["reason"] = reject_el.attrib.get("reason")
    rv["knife"] = reject_el.attrib.get("knife")
    return rv


# --------------------------------------------------------------------------------------------
# 2.-5. the web


def check_web(v: dict[str, float]) -> None:
    """2. The web is a catalogue width and has a positive length and area."""
    if v["width_in"] not in catalog.WEB_WIDTHS:
        raise SetupExcluded("Invalid web width")
    if v["gross_feet"] <= 0 or v["gross_sqft"] <= 0:
        raise SetupExcluded("Invalid gross geometry")


def check_grade(grade: str, target_fpm: float) -> None:
    """3. The grade is known and the target speed is that grade's."""
    if grade not in catalog.GRADE_TARGETS:
        raise SetupExcluded("Unknown grade")
    if target_fpm != catalog.GRADE_TARGETS[grade]:
        raise SetupExcluded("Target does not match grade")


def check_run(known: tuple[str, float, float] | None, run: tuple[str, float, float]) -> None:
    """4. One grade, width and target per wet-end run (``known`` is what the run's first setup said)."""
    if known is not None and known != run:
        raise SetupExcluded("Grade or width changed inside wet-end run")


def check_areas(v: dict[str, float], reject_sqft: float) -> None:
    """5. Gross and shear areas match the web, and the waste does not exceed the gross area."""
    feet, width = v["gross_feet"], v["width_in"]
    if (
        not close(v["gross_sqft"], metrics.gross_sqft(feet, width))
        or not close(v["shear_sqft"], metrics.shear_sqft(v["shear_feet"], width))
        or v["trim_sqft"] + v["shear_sqft"] + reject_sqft > v["gross_sqft"] * (1 + REL_TOL) + ABS_TOL
    ):
        raise SetupExcluded("Waste/gross area out of bounds")


# --------------------------------------------------------------------------------------------
# 6.-8. the knives


def check_knife_set(knives: list[dict[str, Any]]) -> None:
    """6. An upper knife, or an upper and a lower one, each on its own stacker."""
    levels = [k["level"] for k in knives]
    if levels not in (["upper"], ["upper", "lower"]) or any(k["stacker"] != k["level"] for k in knives):
        raise SetupExcluded("Invalid knife set")


def check_knife_geometry(knives: list[dict[str, Any]]) -> None:
    """7. Whole, positive outs and cuts; positive sheet sizes."""
    for k in knives:
        if not (_integer(k["outs"]) and _integer(k["cuts"])) or min(k["outs"], k["cuts"]) < 1:
            raise SetupExcluded("Invalid knife geometry")
        if k["width_in"] <= 0 or k["length_in"] <= 0:
            raise SetupExcluded("Invalid knife geometry")


def check_spans(knives: list[dict[str, Any]], width: float) -> float:
    """8. The knives' spans are contiguous, centred and inside the web; returns the occupied width."""
    occupied = metrics.occupied_width([(k["outs"], k["width_in"]) for k in knives])
    edge = knives[0]["start_in"]
    for k in knives:
        if not close(k["start_in"], edge):
            raise SetupExcluded("Knife spans do not fit the web")
        edge = k["start_in"] + k["outs"] * k["width_in"]
    if edge > width + ABS_TOL or not close(knives[0]["start_in"], width - edge):
        raise SetupExcluded("Knife spans do not fit the web")
    return occupied


# --------------------------------------------------------------------------------------------
# 9.-11. shear, footage and trim


def read_continued(attrs: dict[str, str]) -> bool:
    """9a. ``continued`` is ``true`` or ``false`` (absent means ``false``)."""
    continued = attrs.get("continued", "false")
    if continued not in {"true", "false"}:
        raise SetupExcluded("Invalid continued")
    return continued == "true"


def check_shear(shear_feet: float, continued: bool, first: bool) -> None:
    """9b. The new-setup shear on a setup's first record only, and ``continued`` on the others."""
    expected_shear = catalog.NEW_SETUP_SHEAR_FEET if first else 0.0
    if shear_feet != expected_shear or continued == first:
        raise SetupExcluded("Shear does not match setup start")


def check_footage(knives: list[dict[str, Any]], v: dict[str, float]) -> float:
    """10. Every knife travels the same length and that plus the shear is the gross; returns the travel."""
    travels = [metrics.lineal_feet(k["cuts"], k["length_in"]) for k in knives]
    if any(not close(t, travels[0]) for t in travels) or not close(
        v["gross_feet"], travels[0] + v["shear_feet"]
    ):
        raise SetupExcluded("Knife footage does not reconcile")
    return travels[0]


def check_trim(trim_sqft: float, net_feet: float, width: float, occupied: float) -> None:
    """11. The trim is the web outside the knives' spans over the net length."""
    if not close(trim_sqft, metrics.trim_sqft(net_feet, width, occupied)):
        raise SetupExcluded("Trim does not reconcile with outs")


# --------------------------------------------------------------------------------------------
# 12.-13. rejects and the order ledger


def check_rejects(rejects: list[dict[str, Any]], knives: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """12. Each reject names a catalogue family and reason and a knife of the setup, counts whole sheets
    within that knife's output and has that knife's sheet area; returns the rejects with the knife's
    sheet size."""
    used: dict[str, float] = {}
    by_level = {k["level"]: k for k in knives}
    sized = []
    for r in rejects:
        subs = catalog.REJECT_FAMILIES.get(r["family"] or "")
        knife = by_level.get(r["knife"] or "")
        if subs is None or knife is None or (r["reason"] is not None and r["reason"] not in subs):
            raise SetupExcluded("Invalid reject")
        if not _integer(r["sheets"]) or r["sheets"] < 1:
            raise SetupExcluded("Invalid reject")
        used[r["knife"]] = used.get(r["knife"], 0) + r["sheets"]
        if used[r["knife"]] > knife["cuts"] * knife["outs"]:
            raise SetupExcluded("Invalid reject")
        if not close(r["sqft"], metrics.reject_sqft(int(r["sheets"]), knife["width_in"], knife["length_in"])):
            raise SetupExcluded("Invalid reject")
        sized.append({**r, "width_in": knife["width_in"], "length_in": knife["length_in"]})
    return sized


def order_updates(
    knives: list[dict[str, Any]], grade: str, orders: dict[str, tuple[tuple[Any, ...], int]]
) -> dict[str, tuple[tuple[Any, ...], int]]:
    """13. Each knife's order counts reconcile and its order keeps its identity and remaining sheets;
    returns the ledger entries the setup leaves (``orders`` is read, never changed)."""
    updates = {}
    for k in knives:
        if not all(_integer(k[c]) for c in ORDER_COUNTS):
            raise SetupExcluded("Order quantities do not reconcile")
        requested, planned = int(k["order_quantity"]), int(k["planned_sheets"])
        before, after, produced = (
            int(k["remaining_before"]),
            int(k["remaining_after"]),
            int(k["produced_sheets"]),
        )
        if (
            produced != int(k["cuts"]) * int(k["outs"])
            or after != before - produced
            or not planned >= requested > 0
            or before > planned
        ):
            raise SetupExcluded("Order quantities do not reconcile")
        identity = (grade, k["width_in"], k["length_in"], requested, planned)
        known = orders.get(k["order_id"])
        expected_before = planned if known is None else known[1]
        if (known is not None and known[0] != identity) or before != expected_before:
            raise SetupExcluded("Order identity or remaining quantity changed")
        updates[k["order_id"]] = (identity, after)
    return updates


# --------------------------------------------------------------------------------------------
# The setup


def check_setup(el: Element, ledger: Ledger) -> dict[str, Any]:
    """Run the per-setup checks in their documented order; return the setup's values or raise
    ``SetupExcluded`` with the first failure. The ledger is advanced only on success (the seen setup
    ids from check 9 on, see ``Ledger``)."""
    a = el.attrib
    require_names(a)
    v = setup_values(a)
    knives = [knife_values(c) for c in el if c.tag == "knife"]
    rejects = [reject_values(c) for c in el if c.tag == "reject"]
    grade, width = a["grade"], v["width_in"]
    check_web(v)
    check_grade(grade, v["target_fpm"])
    check_run(ledger.runs.get(a["run"]), (grade, width, v["target_fpm"]))
    reject_sqft = sum(r["sqft"] for r in rejects)
    check_areas(v, reject_sqft)
    check_knife_set(knives)
    check_knife_geometry(knives)
    occupied = check_spans(knives, width)
    continued = read_continued(a)
    first = a["setup_id"] not in ledger.setup_ids_seen
    ledger.setup_ids_seen.add(a["setup_id"])
    check_shear(v["shear_feet"], continued, first)
    travel = check_footage(knives, v)
    net_feet = v["gross_feet"] - v["shear_feet"]
    check_trim(v["trim_sqft"], net_feet, width, occupied)
    rejects = check_rejects(rejects, knives)
    ledger.orders.update(order_updates(knives, grade, ledger.orders))
    ledger.runs.setdefault(a["run"], (grade, width, v["target_fpm"]))
    return {
        "values": v,
        "knives": knives,
        "rejects": rejects,
        "occupied": occupied,
        "net_feet": net_feet,
        "reject_sqft": reject_sqft,
        "continued": continued,
        "travel": travel,
    }
