"""What every answer builder shares: the builder's type, one finding, counts, prices and the ranking rule.

A builder turns one tool result into its headline (or None) and its findings (docs/shifts-agent.md,
"Flow", step 7); it chooses and counts rows, it never computes a figure.
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter
from typing import Any

from shopfloor.shifts.answers.findings import Citation, Figure, Section, said
from shopfloor.shifts.answers.sayings import N_, NN_, Phrase, Term, phrase, say, say_text
from shopfloor.shifts.plant.money import COST_NOTE, RATES

# A tool's answer builder: its result's headline (or None) and its findings.
Shaper = Callable[[dict[str, Any]], tuple[Section | None, list[Section]]]

WITHHELD = N_("Rankings are withheld: the evidence is incomplete, so rows are listed in the tool's order.")

# A finding's form in every language: "- ", its sentence (with its one figure), its citation.
FINDING = "- {said} {cite}"


def withheld() -> Section:
    """The line that says rankings are withheld."""
    return say_text("text", WITHHELD)


def found(
    template: str | tuple[str, str], figure: Figure, cite: Citation, n: Any = None, **params: Any
) -> Section:
    """A bullet with exactly one figure and its citation, said from ``template`` (``{figure}`` in it is the
    figure; a (singular, plural) template is chosen by ``n``) and ``params`` (``answers/sayings.py``)."""
    return say("finding", FINDING, said=phrase(template, n, figure=figure, **params), cite=cite)


def stops_of(n: Any) -> Phrase:
    """A count of stops, said in its plural form ("1 stop", "4 stops")."""
    return phrase(NN_("{n} stop", "{n} stops"), n)


def shifts_of(n: Any) -> Phrase:
    """A count of shifts, said in its plural form ("1 shift", "3 shifts")."""
    return phrase(NN_("{n} shift", "{n} shifts"), n)


def priced_of(row: dict[str, Any]) -> Phrase:
    """:func:`priced` said from templates."""
    if row.get("usd") is None:
        return phrase(N_("not priced"))
    per = row.get("usd_per_year")
    if per is None:
        return phrase("{usd}", usd=f"${row['usd']:,.2f}")
    return phrase(N_("{usd} ({per} a year)"), usd=f"${row['usd']:,.2f}", per=f"${per:,.2f}")


def contribution(status: Any) -> Section:
    """The caveat that says whether a contribution margin is set ("margin set", "margin not set")."""
    return say_text("caveat", N_("Contribution: {status}."), status=term(status))


RATES_LINE = N_(
    "Assumed rates: board {board}/MSF, machine time {machine}/h, {days} production days a year, reference speed "
    "{speed} ft/min, contribution margin {margin}."
)
COST_NOTE_SAID = N_(
    "Dollars are estimates from assumed rates, not accounting figures; a lever is ranked by its estimate, never "
    "prescribed."
)


def rates_lines() -> list[Section]:
    """The assumed rates and the note that dollars are estimates (``plant/money.py``), said from templates;
    each kept as the plant writes it when the two differ."""
    margin = RATES.margin_usd_per_msf
    said = say_text(
        "caveat",
        RATES_LINE,
        board=f"${RATES.board_usd_per_msf:,.0f}",
        machine=f"${RATES.machine_usd_per_hour:,.0f}",
        days=RATES.production_days_per_year,
        speed=f"{RATES.reference_fpm:,.0f}",
        margin=phrase(N_("not set")) if margin is None else f"${margin:,.2f}/MSF",
    )
    note = say_text("caveat", COST_NOTE_SAID)
    return [
        said if said["text"] == RATES.line() else {"type": "caveat", "text": RATES.line()},
        note if note["text"] == COST_NOTE else {"type": "caveat", "text": COST_NOTE},
    ]


def term(value: Any) -> Term | str:
    """A record's word (a reason, place, kind, family, class) as a glossary term; nothing as it is."""
    return Term(str(value)) if value is not None else str(value)


def finding(text: str, value: Any, unit: str, query: int, row: int | None) -> Section:
    """A bullet with exactly one figure and its citation; ``text`` holds ``{}`` for the figure."""
    (before, _, _, _), *rest = Formatter().parse(text)
    after = "".join(literal for literal, _, _, _ in rest)
    return said("finding", f"- {before}", Figure(value, unit), f"{after} ", Citation(query, row))


def count_of(n: Any, noun: str) -> str:
    """A count with its noun, singular for one ("1 stop", "4 stops")."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def priced(row: dict[str, Any]) -> str:
    """A priced row's dollars and per-year figure, said beside its quantity."""
    if row.get("usd") is None:
        return "not priced"
    per = row.get("usd_per_year")
    return f"${row['usd']:,.2f}" + (f" (${per:,.2f} a year)" if per is not None else "")


def is_ranked(env: dict[str, Any]) -> bool:
    """Whether a result may be ranked: complete coverage, and not marked unranked by its tool."""
    cov = env.get("coverage") or {}
    if env.get("ranked") is False:
        return False
    return cov.get("status") == "complete"


def kpi_row(env: dict[str, Any], measure: str) -> tuple[int, dict[str, Any]] | None:
    """The index and row of ``measure`` among a KPI result's rows, or None."""
    for index, row in enumerate(env["rows"]):
        if row.get("measure") == measure:
            return index, row
    return None


def quoted(value: Any) -> str:
    """Untrusted record text, with the markers that shapes use removed."""
    return str(value).replace("**", "").replace("(query", "(q")
