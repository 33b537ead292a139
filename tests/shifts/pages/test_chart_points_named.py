"""A chart over KPI rows names each point's KPI in words, never by its code ("Lineal feet", not "lineal_ft"):
in English by its words, in Spanish as the column of that name is (answers/cells.kpi_name)."""

from __future__ import annotations

import re

from shopfloor.shifts.pages.chart_view import point_word
from shopfloor.shifts.pages.i18n import ENGLISH, Words

COMPARISON = "/shifts/a?day=2026-09-16&shift=2&include=day&measure=compare_shifts&other_shift=1"


def test_a_kpi_code_on_a_chart_is_named_in_the_pages_language():
    assert point_word("lineal_ft", ENGLISH, "measure") == ("Lineal feet", False)
    assert point_word("speed_to_target_pct", ENGLISH, "measure") == ("Speed to target", False)
    assert point_word("lineal_ft", Words("es"), "measure") == ("pies lineales", False)
    # Outside a KPI row's measure column the word is what it was: a grade stays a code.
    assert point_word("lineal_ft", ENGLISH, "grade") == ("lineal_ft", False)


def _points(page: str) -> str:
    return " ".join(re.findall(r"<svg.*?</svg>", page, re.S))


def test_a_shift_comparisons_kpi_chart_says_no_code(page_client):
    english = page_client.get(COMPARISON, headers={"accept": "text/html", "accept-language": "en-US"}).text
    spanish = page_client.get(COMPARISON, headers={"accept": "text/html", "accept-language": "es-EC,es"}).text
    assert "Lineal feet" in _points(english) and "pies lineales" in _points(spanish)
    for page in (english, spanish):
        assert not re.search(r"\blineal_ft\b|\bspeed_to_target_pct\b", _points(page))
