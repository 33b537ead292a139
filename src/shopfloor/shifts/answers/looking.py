""" "Where to look" said from templates (``answers/sayings.py``): each place in the records and the question
that opens it, and a refusal's closest questions, so a page in another language names them in it.

The places and questions are planning's (``planning/where.py``, ``planning/reading.py`` SUPPORTED), written
there in English; each item links to its question's address, never sends its words back as a question, so a
page may show them in its language. A place or question not listed here is kept as it is (English).
"""

from __future__ import annotations

from shopfloor.shifts.answers.findings import Section
from shopfloor.shifts.answers.sayings import N_, Phrase, Quoted, phrase, say_text

# The places in the records (planning/where.py WHERE_DAY, WHERE_WINDOW).
PLACES = frozenset(
    {
        N_("The setup matrix, setup by setup"),
        N_("Downtime by place"),
        N_("The crew's notes"),
        N_("The downtime pareto by place"),
        N_("The waste breakdown"),
        N_("The speed by grade"),
        N_("The downtime review against the bands"),
    }
)

# The questions that open them, and the supported questions a refusal offers (planning/reading.py).
QUESTIONS = frozenset(
    {
        N_("Show the setup matrix"),
        N_("Show the downtime by place"),
        N_("What did the notes say"),
        N_("Downtime pareto by place"),
        N_("Show the waste breakdown"),
        N_("fpm by grade"),
        N_("Show the downtime review"),
        N_("Why was this shift slow?"),
        N_("Show the KPIs"),
        N_("Show the downtime by reason"),
        N_("Was it maintenance or operator downtime?"),
        N_("Show speed to target"),
        N_("How much did we make?"),
        N_("Show dry-end quality waste"),
        N_("Show orders and quantities"),
        N_("Show rankings"),
        N_("What did the notes say?"),
        N_("Where did the money go this shift?"),
        N_("Compare all shifts"),
        N_("Downtime pareto this month"),
        N_("Waste breakdown this week"),
        N_("Speed trend over the last 8 weeks"),
        N_("Is knife jam downtime getting worse?"),
        N_("Where are the biggest levers this month?"),
        N_("Show the downtime review this month"),
        N_("Speed by crew this month"),
    }
)


def _said(text: str, known: frozenset[str]) -> Phrase | Quoted:
    return phrase(text) if text in known else Quoted(text)


def where(place: str, question: str, address: str) -> Section:
    """A place to look and the question that opens it, linked to its address."""
    item = say_text(
        "where",
        N_("- {place} → “{question}”"),
        place=_said(place, PLACES),
        question=_said(question, QUESTIONS),
    )
    return {**item, "address": address}


def closest(question: str, address: str) -> Section:
    """A supported question nearest to a refused one, linked to its address."""
    return {**say_text("where", "- {question}", question=_said(question, QUESTIONS)), "address": address}
