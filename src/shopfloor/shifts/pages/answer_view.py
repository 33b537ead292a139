"""What the /shifts page shows of an answer: its sections in page order, findings drawn from their parts
with citations linked to the trace, the question asked, the "Read as" line, the trace's steps and
collapsible tables.

No figure is computed here: these functions only choose, order and label what the
tools returned (docs/shifts-agent.md, "Flow", step 7)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from markupsafe import Markup

from shopfloor.shifts.answers.bands import BAND_TEXTS, band_of
from shopfloor.shifts.answers.cells import UNIT_SYMBOLS, said_cell
from shopfloor.shifts.answers.findings import parts_of
from shopfloor.shifts.answers.glossary import RECORD_WORDS
from shopfloor.shifts.answers.sayings import RECORD, spoken
from shopfloor.shifts.answers.tool_errors import error_in
from shopfloor.shifts.pages.columns import COLUMN, COLUMN_WORDS
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words, translations
from shopfloor.shifts.pages.scope_view import EXAMPLES, scope_line, window_of

# An answer's status as the page names it.
STATUS_LABELS = {
    "complete": N_("complete"),
    "partial": N_("partial"),
    "unavailable": N_("unavailable"),
    "failed": N_("failed"),
    "budget_exhausted": N_("model budget spent"),
}


ROWS_SHOWN = 200


_QUALITY = re.compile(r"\b(excluded|incomplete|withheld|partial|unavailable)\b", re.I)


def marked(
    section: Mapping[str, Any], numbers: set[int] | None = None, bullet: bool = False, words: Words = ENGLISH
) -> Markup:
    """A section as markup, drawn from its parts (``answers/findings.py``): the text escaped, each figure
    bold, each citation of a result's row a link to its trace row, in the page's language (a said section
    said again from its template, ``answers/sayings.py``); a ``bullet`` without its "- "."""
    out = []
    for index, part in enumerate(parts_of(localized(section, words))):
        if isinstance(part, str):
            text = part[2:] if index == 0 and bullet and part.startswith("- ") else part
            out.append(html.escape(text, quote=True))
        elif "quote" in part:
            # A record's own words, in the records' language (answers/sayings.py: Quoted).
            out.append(f"<span lang='en'>{html.escape(str(part['quote']), quote=True)}</span>")
        elif "window" in part:
            # A window by its label, named in the page's language (answers/sayings.py: Named).
            out.append(html.escape(window_of(part["window"], words), quote=True))
        elif "asked" in part:
            # The question's own words, as the supervisor wrote them (answers/sayings.py: Asked).
            out.append(f"<span class='asked'>{html.escape(str(part['asked']), quote=True)}</span>")
        elif "figure" in part:
            out.append(f"<strong>{html.escape(figure_text(part, words), quote=True)}</strong>")
        else:
            out.append(cited_link(part, numbers, words))
    return Markup("".join(out))


# Counted units the answers write in English beside a figure ("4 stops", "0.83 hours"): a page in another
# language says the figure's number and its unit in the plural form its value takes.
COUNTED = ("stop", "stops", "shift", "shifts", "point", "points", "hours", "line", "lines")
# A figure with no value, as the answers write it (answers/findings.py ``fmt``).
UNAVAILABLE = N_("Unavailable")


def figure_text(part: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A figure as the page writes it: the answer's own figure in English; in another language a counted
    unit said in it (its plural form chosen for its value: "1 paro", "5 paros", "1.65 puntos") and a figure
    with no value said as unavailable ("No disponible")."""
    unit = str(part.get("unit", ""))
    if words.locale != "en" and part.get("value") is None and part.get("figure") == UNAVAILABLE:
        return words._(UNAVAILABLE)
    if words.locale == "en" or unit not in COUNTED or part.get("value") is None:
        return str(part["figure"])
    number = str(part["figure"]).removesuffix(unit).strip()
    count = 1 if part["value"] == 1 else 2
    if unit.startswith("stop"):
        return words.ngettext("{figure} stop", "{figure} stops", count, figure=number)
    if unit.startswith("shift"):
        return words.ngettext("{figure} shift", "{figure} shifts", count, figure=number)
    if unit == "hours":
        return words.ngettext("{figure} hour", "{figure} hours", count, figure=number)
    if unit.startswith("line"):
        return words.ngettext("{figure} line", "{figure} lines", count, figure=number)
    return words.ngettext("{figure} point", "{figure} points", count, figure=number)


def localized(section: Mapping[str, Any], words: Words = ENGLISH) -> dict[str, Any]:
    """A section in the page's language: in English as the answer wrote it; in another language a said
    section (one with ``say``) said again from its template and the same figures and citations, any other
    section as it is (English, marked so by :func:`is_english`)."""
    if words.locale == "en":
        return dict(section)
    return spoken(section, translations(words.locale))


def is_english(section: Mapping[str, Any] | None, words: Words = ENGLISH) -> bool:
    """Whether a section shows in English on a page in another language: one not said from a template."""
    return words.locale != "en" and section is not None and not section.get("say")


# What a citation counts in, by its "of" (answers/findings.py): a result's row, or another list's item.
CITED_OF = {"row": N_("row"), "detail": N_("detail"), "weekday": N_("weekday"), "flag": N_("flag")}


def cited_text(part: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """A citation as the page shows it: "(query 1 · row 4)", in the page's language."""
    query = words._("query {number}").format(number=part["query"])
    if "row" not in part:
        return f"({query})"
    of = part.get("of", "row")
    return f"({query} · {words._(CITED_OF.get(of, of))} {part['row']})"


def cited_link(part: dict[str, Any], numbers: set[int] | None, words: Words = ENGLISH) -> str:
    """A citation, a link to the query's trace row (or its row) unless ``numbers`` leaves the query out."""
    text = html.escape(cited_text(part, words), quote=True)
    query, row = part["query"], part.get("row")
    if part.get("of", "row") != "row" or (numbers is not None and query not in numbers):
        return text
    target = f"q{query}-r{row}" if row else f"q{query}"
    if row:
        label = words._("Evidence: query {query}, row {row}").format(query=query, row=row)
    else:
        label = words._("Evidence: query {query}").format(query=query)
    return f"<a class='cite' href='#{target}' aria-label='{html.escape(label, quote=True)}'>{text}</a>"


@dataclass
class Parts:
    """An answer's sections in page order: lead (headline, findings, their labels and data-quality lines),
    then the charts, then the rest (plain sentences, caveats), and "Where to look"."""

    preface: list[dict[str, Any]]
    lead: list[dict[str, Any]]
    rest: list[dict[str, Any]]
    where: list[dict[str, Any]]


def split_sections(sections: list[dict[str, Any]], status: str) -> Parts:
    """Order the sections as the page shows them (the chart follows the findings directly)."""
    preface: list[dict[str, Any]] = []
    lead: list[dict[str, Any]] = []
    rest: list[dict[str, Any]] = []
    where: list[dict[str, Any]] = []
    # The "Read as" section is drawn on its own line above the answer, so it is not repeated here; the
    # preface is the first section after it.
    shown = [section for section in sections if section["type"] != "read_as"]
    for index, section in enumerate(shown):
        kind = section["type"]
        if kind == "label" and section["text"] == "Where to look":
            continue
        if kind == "where":
            where.append(section)
            continue
        if kind == "comparison":
            continue  # the side-by-side table, drawn on its own after the headline (comparison_view.py)
        if index == 0 and kind == "text" and status not in ("complete", "partial", "unavailable"):
            preface.append(section)
        elif kind in ("headline", "finding", "label"):
            lead.append(section)
        elif kind == "text" and _QUALITY.search(section["text"]):
            lead.append(section)  # a data-quality warning stays with the findings
        else:
            rest.append(section)
    return Parts(preface, lead, rest, where)


def finding_groups(lead: list[dict[str, Any]], shown: int = 5) -> list[dict[str, Any]]:
    """The lead sections grouped under their labels; each group shows ``shown`` findings and folds the rest."""
    groups: list[dict[str, Any]] = [{"label": None, "items": []}]
    for section in lead:
        if section["type"] == "label":
            groups.append({"label": section["text"], "label_section": section, "items": []})
        else:
            groups[-1]["items"].append(section)
    out = []
    for group in groups:
        if not group["items"] and group["label"] is None:
            continue
        findings = [s for s in group["items"] if s["type"] == "finding"]
        fold = {id(s) for s in findings[shown:]}
        group["shown"] = [s for s in group["items"] if id(s) not in fold]
        group["more"] = [s for s in group["items"] if id(s) in fold]
        out.append(group)
    return out


def asked(answer: dict[str, Any], words: Words = ENGLISH) -> str | None:
    """The question the answer was asked with, or None when it was opened from its address (an address
    answers without its question: the same address answers every question that resolves to it). An
    example button's question reads as the button did, in the page's language."""
    question = answer.get("question")
    if not question or question == answer.get("address"):
        return None
    return words._(question) if question in EXAMPLES else str(question)


# What a plan measures, as the page's own "Read as" line says it in a language other than the reader's
# English (the keys are the reader's measures: planning/reading.py MEASURE_WORDS).
MEASURE_LABELS = {
    "overview": N_("diagnosis"),
    "kpis": N_("KPIs"),
    "downtime": N_("downtime"),
    "quality": N_("dry-end rejects"),
    "fpm": N_("speed to target"),
    "volume": N_("volume"),
    "setups": N_("setup matrix"),
    "orders": N_("order matrix"),
    "notes": N_("shift and stop notes"),
    "rankings": N_("rankings"),
    "dollars": N_("where the money went"),
    "compare_shifts": N_("shift comparison"),
    "compare": N_("window comparison"),
    "pareto": N_("downtime pareto"),
    "waste": N_("waste breakdown"),
    "stops": N_("stops profile"),
    "trend": N_("weekly trend"),
    "overrun": N_("knife overrun"),
    "rollstock": N_("rollstock consumed"),
    "review": N_("downtime review against the bands"),
    "speed_opportunity": N_("speed opportunity"),
    "variance": N_("where the speed went"),
    "opportunities": N_("levers in $ a year"),
    "compare_groups": N_("shifts compared on speed to target"),
    "named_cost": N_("cost at the assumed rates"),
}


# A plan's breakdown ("by reason"), as the page's own "Read as" line says it (planning/plans.py BY).
BY_LABELS = {
    "reason": N_("by reason"),
    "place": N_("by equipment"),
    "kind": N_("by kind"),
    "grade": N_("by grade"),
    "width": N_("by web width"),
    "crew": N_("by crew"),
    "shift": N_("by shift"),
}


# Downtime kinds (planning/plans.py KINDS) as the page names them.
KIND_LABELS = {"Maintenance": N_("Maintenance"), "Operator": N_("Operator"), "PM": N_("PM")}


def read_as(answer: dict[str, Any], words: Words = ENGLISH) -> str | None:
    """The "Read as" line: in English the reader's own when the answer carries one, else (and in every
    other language) what the plan asked for, said by the page."""
    own = answer.get("read_as")
    if own and words.locale == "en":
        return str(own)
    plan = answer.get("plan")
    if not plan:
        scope = answer.get("scope") or {}
        if not scope.get("day"):
            return None
        line = scope_line(
            date.fromisoformat(scope["day"]),
            scope.get("shift"),
            scope.get("include") or "day",
            scope.get("period") or "day",
            words,
        )
        return words._("Read as a question the offline planner does not support · {scope}").format(scope=line)
    measure = plan["measure"]
    what = words._(MEASURE_LABELS[measure]) if measure in MEASURE_LABELS else measure.replace("_", " ")
    if measure == "overview" and plan.get("shift") is not None and (plan.get("window") or "day") == "day":
        what = words._("shift diagnosis")
    extra = (
        [words._(BY_LABELS[plan["by"]]) if plan["by"] in BY_LABELS else plan["by"]] if plan.get("by") else []
    )
    if plan.get("kind"):
        kind = words._(KIND_LABELS[plan["kind"]]) if plan["kind"] in KIND_LABELS else plan["kind"]
        extra.append(words._("{kind} only").format(kind=kind))
    if plan.get("other_shift"):
        extra.append(words._("against shift {shift}").format(shift=plan["other_shift"]))
    if plan.get("chart"):
        extra.append(words._("with a chart"))
    day = date.fromisoformat(plan.get("anchor") or plan["day"])
    line = scope_line(
        day, plan.get("shift"), plan.get("include") or "shift", plan.get("window") or "day", words
    )
    what = f"{what} {', '.join(extra)}" if extra else what
    return words._("Read as {what} · {scope}").format(what=what, scope=line)


def trace_steps(answer: dict[str, Any], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Each tool call of the answer's trace, numbered as the citations number them, with its SQL and rows."""
    out = []
    number = 0
    for step in answer.get("trace", []):
        if step.get("kind") == "model_call":
            out.append({"kind": "model", "step": step})
            continue
        if step.get("kind") != "tool_call":
            continue
        number += 1
        output = step.get("output")
        rows = output.get("rows", []) if isinstance(output, dict) else []
        rows = rows if isinstance(rows, list) else []
        columns = _columns(rows)
        out.append(
            {
                "kind": "tool",
                "number": number,
                "tool": step.get("tool"),
                "input": step.get("input"),
                "is_error": step.get("is_error"),
                "error": _error(output, words) if step.get("is_error") else None,
                "error_en": words.locale != "en" and _error(output, words) == output,
                "duration_ms": step.get("duration_ms"),
                "sql": output.get("sql", []) if isinstance(output, dict) else [],
                "columns": columns,
                "headers": column_headers(columns, words),
                "rows": [
                    [_cell(r.get(c), words, c) for c in columns]
                    for r in rows[:ROWS_SHOWN]
                    if isinstance(r, dict)
                ],
                "total": len(rows),
                "result_id": output.get("result_id") if isinstance(output, dict) else None,
            }
        )
    return out


def _error(output: Any, words: Words) -> Any:
    """A failed call's error in the page's language: a tool's error said from its template
    (``answers/tool_errors.py``), any other as it was written (English)."""
    if words.locale == "en" or not isinstance(output, str):
        return output
    return error_in(output, translations(words.locale)) or output


def table_of(rows: list[dict[str, Any]], limit: int = ROWS_SHOWN, words: Words = ENGLISH) -> dict[str, Any]:
    """A collapsible table: labelled columns, at most ``limit`` rows, and how many there were."""
    columns = _columns(rows)
    return {
        "columns": columns,
        "headers": column_headers(columns, words),
        "rows": [[_cell(r.get(c), words, c) for c in columns] for r in rows[:limit]],
        "total": len(rows),
    }


def column_name(column: str, words: Words = ENGLISH) -> str:
    """A column's name as a table heads it: the tool's field in English, its name in another language
    (``pages/columns.py``); a column not named there is headed by the field."""
    if words.locale == "en" or column not in COLUMN_WORDS:
        return column
    return words.pgettext(COLUMN, column)


def column_headers(columns: list[str], words: Words = ENGLISH) -> list[dict[str, Any]]:
    """Each column's header: its name in the page's language and whether it is English (a field not named in
    ``pages/columns.py``, on a page in another language)."""
    return [
        {"name": column_name(c, words), "en": words.locale != "en" and c not in COLUMN_WORDS} for c in columns
    ]


def _columns(rows: list[Any]) -> list[str]:
    columns: list[str] = []
    for row in rows[:50]:
        if isinstance(row, dict):
            for key in row:
                if key not in columns and not isinstance(row[key], (dict, list)):
                    columns.append(key)
    return columns


class Cell(str):
    """A table cell's text in the page's language, and whether it is English on a page in another language
    (``en``: a tool's own words no template or glossary says)."""

    en: bool = False


def _cell(value: Any, words: Words = ENGLISH, column: str | None = None) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return words._("yes") if value else words._("no")
    if isinstance(value, float):
        return f"{value:,.4f}".rstrip("0").rstrip(".") if not value.is_integer() else f"{value:,.0f}"
    text, said = said_word(str(value), words, column)
    cell = Cell(text)
    cell.en = not said
    return cell


# A report's cells as its rows write them (answers/reports.py ``display``): no value, yes and no.
SAID_CELLS = (UNAVAILABLE, N_("yes"), N_("no"))


def record_word(text: str, words: Words = ENGLISH, column: str | None = None) -> str:
    """A cell or a chart point's label in the page's language: a word of the records' vocabulary through the
    glossary (``answers/glossary.py``), a tool's band text through its template (``answers/bands.py``), a
    tool's own words in ``column`` through their templates (``answers/cells.py``), a report's
    "Unavailable", "yes" and "no" said so, anything else (a code, a grade) as it is."""
    return said_word(text, words, column)[0]


def said_word(text: str, words: Words = ENGLISH, column: str | None = None) -> tuple[str, bool]:
    """:func:`record_word`, and whether the text is said in the page's language or needs no saying (a
    code, a figure, a unit's symbol): False for a tool's own words no template or glossary says, which stay
    English (marked so on the page)."""
    if words.locale == "en":
        return text, True
    if text in SAID_CELLS:
        return words._(text), True
    band = band_of(text)
    if band is not None:
        return words._(band[0]).format(band=band[1]), True
    said = said_cell(text, column, translations(words.locale))
    if said is not None:
        return said, True
    if text in _RECORDS:
        return words.pgettext(RECORD, text), True
    return text, text in UNIT_SYMBOLS or not _WORDY.search(text)


_RECORDS = frozenset(RECORD_WORDS)


@cache
def _said_bands(locale: str) -> tuple[re.Pattern[str], ...]:
    """The band texts as this language says them, each a pattern with its band's figure left open."""
    words = Words(locale)
    out = []
    for template in BAND_TEXTS:
        before, _, after = words._(template).partition("{band}")
        out.append(re.compile(f"{re.escape(before)}.+{re.escape(after)}"))
    return tuple(out)


@cache
def _said_words(locale: str) -> frozenset[str]:
    words = Words(locale)
    return frozenset((*(words.pgettext(RECORD, word) for word in RECORD_WORDS), *map(words._, SAID_CELLS)))


# Words of three letters or more: a cell holding one is text in some language, not a code or a figure.
_WORDY = re.compile(r"[A-Za-z]{3,}")


def is_english_text(text: Any, words: Words = ENGLISH) -> bool:
    """Whether a cell or a point's label shows English on a page in another language: text that is neither a
    record's word said through the glossary nor a code or a figure (a tool's own words). A :class:`Cell`
    knows it from the words it was said from."""
    if words.locale == "en":
        return False
    if isinstance(text, Cell):
        return text.en
    value = str(text)
    if not _WORDY.search(value) or value in _said_words(words.locale):
        return False
    return not any(pattern.fullmatch(value) for pattern in _said_bands(words.locale))
