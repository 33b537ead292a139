"""The /shifts page's eleven KPI cards: which result rows they show, in which order, with their units,
bands and citations (the values are the tools', never computed here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shopfloor.shifts.pages.answer_view import cited_text
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words
from shopfloor.shifts.pages.scope_view import window_of

# The eleven cards of the reference, in its order: (measure, label).
CARDS: tuple[tuple[str, str], ...] = (
    ("shift_fpm", N_("Speed")),
    ("speed_to_target_pct", N_("Speed / target")),
    ("valid_setups", N_("Setups")),
    ("paper_changes", N_("Paper changes")),
    ("maintenance_pct", N_("Maintenance")),
    ("operator_pct", N_("Operator")),
    ("dry_end_pct", N_("Dry-end waste")),
    ("trim_pct", N_("Trim")),
    ("shear_pct", N_("Shear")),
    ("throughput_in", N_("Throughput")),
    ("lineal_per_setup", N_("Lineal / setup")),
)


# A card's band as the page says it, from the band's value (the tools' own band text is English).
BAND_TEXTS = {
    "speed_to_target_pct": N_("speed to target below {band} is highlighted"),
    "maintenance_pct": N_("maintenance band {band} of scheduled minutes"),
    "operator_pct": N_("operator band {band} of scheduled minutes"),
    "trim_pct": N_("trim flags above {band} per setup (guidance for the total)"),
    "dry_end_pct": N_("dry-end waste flags above {band} of gross"),
    "shear_pct": N_("shear {band} is guidance, not an alarm"),
}


def band_text(row: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
    """A KPI row's band in the page's language (the tool's own text for a band the page does not name)."""
    text = row.get("band_text")
    template = BAND_TEXTS.get(str(row.get("measure")))
    if text is None or template is None:
        return None if text is None else str(text)
    # The band's figure is read from the tool's own sentence; a sentence in another shape stays as it is.
    before, _, after = template.partition("{band}")
    text = str(text)
    if not (text.startswith(before) and text.endswith(after) and len(text) > len(before) + len(after)):
        return text
    return words._(template).format(band=text[len(before) : len(text) - len(after)])


def kpi_groups(answer: dict[str, Any], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """The eleven cards for each KPI result of ``answer`` (one group per shift or window)."""
    groups = []
    for env in answer.get("evidence", []):
        rows = {r.get("measure"): (i, r) for i, r in enumerate(env.get("rows", [])) if isinstance(r, dict)}
        if not all(m in rows for m, _ in CARDS):
            continue
        cards = []
        for measure, label in CARDS:
            index, row = rows[measure]
            value = row.get("value", row.get("current"))
            cards.append(
                {
                    "measure": measure,
                    "label": words._(label),
                    "value": value,
                    "text": card_value(value, row.get("unit", ""), words),
                    "flag": bool(row.get("flag")),
                    "band_text": band_text(row, words),
                    "delta": row.get("delta"),
                    "cite": cited_text({"query": env["query"], "row": index + 1}, words),
                    "anchor": f"q{env['query']}-r{index + 1}",
                }
            )
        shift = env.get("shift")
        title = words._("Shift {shift}").format(shift=shift) if shift else words._("Every shift")
        coverage = env.get("coverage") or {}
        groups.append(
            {
                "title": f"{title} · {window_of(env.get('window') or {}, words)}",
                "cards": cards,
                "coverage": coverage,
                "coverage_label": coverage_label(coverage.get("status"), words),
            }
        )
    return groups


# A result's coverage status as a card group's header says it: a shift is complete or incomplete, a window
# complete, partial or unavailable (tools/rows.py ``shift_coverage``, plant/calendar.py ``coverage``).
COVERAGE_LABELS = {
    "complete": N_("complete"),
    "incomplete": N_("incomplete"),
    "partial": N_("partial"),
    "unavailable": N_("unavailable"),
}


def coverage_label(status: Any, words: Words = ENGLISH) -> str | None:
    """A coverage status in the page's language (a status not listed as it is; None when there is none)."""
    if status is None:
        return None
    return words._(COVERAGE_LABELS[status]) if status in COVERAGE_LABELS else str(status)


# A card's unit as the page writes it (the tools' units; a unit not listed is written as it is).
UNITS = {"setups": N_("setups"), "runs": N_("runs"), "stops": N_("stops")}


def card_value(value: Any, unit: str, words: Words = ENGLISH) -> str:
    """A card's figure with its unit, or "Incomplete" when the figure is withheld."""
    if value is None:
        return words._("Incomplete")
    unit = words._(UNITS[unit]) if unit in UNITS else unit
    if unit == "%":
        return f"{value:,.2f} %"
    if unit in ("ft/min", "in", "ft"):
        return f"{value:,.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f} {unit}"
    return f"{value:,.0f} {unit}"
