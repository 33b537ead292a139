"""Findings as data: a sentence's plain text, its figure (value and unit) and its citation (query, row).

A section that states a figure carries its ``parts`` beside its ``text``: plain strings, a figure
``{"figure": "84.37 %", "value": 84.37, "unit": "%"}`` and a citation ``{"query": 1, "row": 4}`` (row
counted from 1; ``"of": "detail"`` or ``"weekday"`` for a citation of another list). The page, the PDF and
the terminal draw the parts; ``text`` is the same sentence written with the two markers, a **figure** in
bold and its evidence ``(query N · row M)``, for the evals and the JSON (docs/shifts-agent.md, "Flow").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Section = dict[str, Any]


def fmt(value: Any, unit: str) -> str:
    """A figure with its unit, at a fixed precision per unit."""
    if value is None:
        return "Unavailable"
    if unit == "$":
        return f"${value:,.2f}"
    if unit == "%":
        return f"{value:,.2f} %"
    if unit in ("ft", "sq ft", "MSF"):
        return f"{value:,.1f} {unit}"
    if unit in ("ft/min", "min", "in"):
        return f"{value:,.1f} {unit}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f} {unit}".strip()
    return f"{value:,.0f} {unit}".strip()


@dataclass(frozen=True)
class Figure:
    """One figure of a finding: its value and unit, shown at the unit's precision."""

    value: Any
    unit: str

    def as_part(self) -> dict[str, Any]:
        """The JSON part."""
        return {"figure": fmt(self.value, self.unit), "value": self.value, "unit": self.unit}


@dataclass(frozen=True)
class Citation:
    """Where a figure comes from: step ``query`` of the trace's tool calls and ``row`` of its result
    (counted from 0 here; None: a figure the envelope carries); ``of`` names another list of that result."""

    query: int
    row: int | None = None
    of: str = "row"

    def as_part(self) -> dict[str, Any]:
        """The JSON part (the row counted from 1, as the answer shows it)."""
        part: dict[str, Any] = {"query": self.query}
        if self.row is not None:
            part["row"] = self.row + 1
        if self.of != "row":
            part["of"] = self.of
        return part


Part = str | Figure | Citation


def cite(query: int, row: int | None) -> str:
    """The evidence marker of a figure."""
    return cite_text({"query": query, **({"row": row + 1} if row is not None else {})})


def cite_text(part: dict[str, Any]) -> str:
    """A citation part as the text shows it: ``(query 1 · row 4)``."""
    if "row" not in part:
        return f"(query {part['query']})"
    return f"(query {part['query']} · {part.get('of', 'row')} {part['row']})"


def said(kind: str, *pieces: Part) -> Section:
    """A section of ``kind`` from its pieces: the parts as data and the text with its markers."""
    parts: list[str | dict[str, Any]] = [p if isinstance(p, str) else p.as_part() for p in pieces]
    return {"type": kind, "text": markdown(parts), "parts": parts}


def markdown(parts: list[Any]) -> str:
    """The parts as one line: a figure in ``**bold**``, a citation in brackets."""
    return "".join(p if isinstance(p, str) else _part_text(p, "**") for p in parts)


def plain(parts: list[Any]) -> str:
    """The parts as one line without markers."""
    return "".join(p if isinstance(p, str) else _part_text(p, "") for p in parts)


def _part_text(part: dict[str, Any], bold: str) -> str:
    if "quote" in part:
        return str(part["quote"])  # a record's own words (answers/sayings.py, another language only)
    if "asked" in part:
        return str(part["asked"])  # the question's own words (answers/sayings.py, another language only)
    if "window" in part:
        return str(part["window"].get("label", ""))  # a window by its label (answers/sayings.py: Named)
    return f"{bold}{part['figure']}{bold}" if "figure" in part else cite_text(part)


def parts_of(section: Section) -> list[Any]:
    """A section's parts; a section without figures is its text alone."""
    parts = section.get("parts")
    return list(parts) if parts is not None else [section["text"]]


def reworded(section: Section, kind: str, prefix: str = "", bullet: bool | None = None) -> Section:
    """``section`` as another kind: ``prefix`` first, as a sentence (``bullet=False``: no "- ", one final
    full stop) or as a bullet (``bullet=True``: "- " first, no final full stop)."""
    parts = parts_of(section)
    if bullet is False and isinstance(parts[0], str) and parts[0].startswith("- "):
        parts[0] = parts[0][2:]
    parts = _without_final_stop(parts)
    if bullet is False:
        parts.append(".")
    if prefix or bullet:
        parts.insert(0, ("- " if bullet else "") + prefix)
    return _section({k: v for k, v in section.items() if k not in ("text", "parts")}, kind, parts)


def _without_final_stop(parts: list[Any]) -> list[Any]:
    """``text.rstrip(".")`` over the parts: only trailing plain strings lose their full stops."""
    out = list(parts)
    while out and isinstance(out[-1], str):
        stripped = out[-1].rstrip(".")
        if stripped:
            out[-1] = stripped
            break
        out.pop()
    return out


def _section(base: Section, kind: str, parts: list[Any]) -> Section:
    merged = _merge(parts)
    out = {**base, "type": kind, "text": markdown(merged)}
    if any(not isinstance(p, str) for p in merged):
        out["parts"] = merged
    return out


def _merge(parts: list[Any]) -> list[Any]:
    """Adjacent plain strings joined, empty ones dropped."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, str):
            if not part:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += part
                continue
        out.append(part)
    return out


def before_figure(section: Section) -> str:
    """The text of ``section`` before its first figure (all of it when it has none)."""
    head = []
    for part in parts_of(section):
        if not isinstance(part, str):
            if "figure" in part:
                break
            head.append(_part_text(part, ""))
            continue
        head.append(part)
    return "".join(head)
