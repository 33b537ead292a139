"""The reader's round-19 classes (evals/shifts/blind-r19.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a grouping no tool makes ("by flute") is named; groups ranked by their N
("top 3 grades") are the rows by that kind, and a ranking on trim is named whichever plan answers it; a speed or
volume window against the one before names that window by its dates; a section of the corrugator that is no stop
place ("the single facer") is named beside the shift's downtime; square feet and good board said in Spanish are
the volume (docs/shifts-agent.md, "The three rules", "Reading", "Known limits").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21; every full day runs the
same five setups.
"""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import account, more_values
from shopfloor.shifts.planning.reading import canonical
from tests.shifts.investigation.reading_helpers import ask
from tests.shifts.investigation.reading_helpers import routed as _routed
from tests.shifts.investigation.reading_helpers import text as _text

MONDAY = date(2026, 9, 21)
FRIDAY = date(2026, 9, 18)
FLUTE = "by flute (no tool groups by flute"
TRIM_RANKED = "the ranking on trim"


def _lines(question: str, scope: Scope) -> str:
    plan = _routed(question, scope)
    return " ".join(account(question, plan).lines() + more_values(question, plan)[0])


# --- a grouping no tool makes: the flute --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("msf by flute this month", True),
        ("downtime per flute last week", True),
        ("which flute had the most trim last week", True),
        ("flute transition downtime last week", False),  # a stop reason, not a grouping
        ("msf by grade last week", False),
    ],
)
def test_a_grouping_by_flute_is_named(question: str, named: bool) -> None:
    assert (FLUTE in _lines(question, Scope(day=MONDAY))) is named


def test_volume_by_flute_answers_the_grades_and_says_so(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A: five days of 7,521.5 MSF (735,000 + 2,205,000 + 644,000 + 1,087,500 + 2,850,000 sq ft).
    answer = ask(conn, "MSF by flute last week", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    text = _text(answer)
    assert "**37,607.5 MSF**" in text
    assert "Not applied: by flute" in text


# --- groups ranked by their N ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "trim", "by_grade"),
    [
        ("top 3 grades by trim last month", True, True),
        ("worst two grades by trim this week", True, True),
        ("top 3 shifts by trim last week", True, False),  # the shifts compared, trim not their ranking
        ("top 2 grades by downtime last month", False, True),
        ("rank the grades by msf last month", False, False),  # the grades' volume rows
        ("trim last month", False, False),
    ],
)
def test_groups_ranked_by_their_n(question: str, trim: bool, by_grade: bool) -> None:
    lines = _lines(question, Scope(day=MONDAY))
    assert (TRIM_RANKED in lines) is trim, lines
    assert ("by grade (this answer's tools do not break" in lines) is by_grade, lines


def test_top_grades_by_trim_is_never_complete(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A's side trim: 163,310 sq ft a day of 7,521,500 gross, 2.17 %.
    answer = ask(conn, "top 3 grades by trim last week", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    text = _text(answer)
    assert "Side trim was **2.17 %** of gross" in text
    assert "Not applied: the ranking on trim" in text


# --- a speed or volume window against the one before ----------------------------------------------------------


def test_msf_against_last_week_names_both_weeks(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "MSF this week vs last week", Scope(day=FRIDAY))
    assert answer["read_as"].endswith(
        "week of 2026-09-14 (Mon–Fri) against the window before, week of 2026-09-07"
    )
    assert "**37,607.5 MSF**" in _text(answer)


@pytest.mark.parametrize(
    ("question", "before"),
    [
        ("speed this week vs last week", True),
        ("lineal footage this week versus last week", True),
        ("msf this week", False),
        ("speed this week vs the target", False),  # a limit, not a window
    ],
)
def test_the_window_before_is_named_only_when_asked(
    conn: duckdb.DuckDBPyConnection, question: str, before: bool
) -> None:
    answer = ask(conn, question, Scope(day=FRIDAY))
    assert ("against the window before, week of 2026-09-07" in answer["read_as"]) is before


# --- a section of the corrugator that is no stop place ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("how long was the single facer down on 2nd yesterday", "single facer"),
        ("was the single-facer down on third", "single-facer"),
        ("stacker downtime last week", "stacker"),
        ("downtime at the upper knife yesterday", None),
    ],
)
def test_a_section_that_is_no_place_is_not_in_the_records(question: str, said: str | None) -> None:
    found = account(question).not_in_records
    assert (said in found) if said else not found, found


def test_the_single_facer_reads_the_shifts_downtime_and_names_it(conn: duckdb.DuckDBPyConnection) -> None:
    # Yesterday from Friday 2026-09-18 is Thursday 2026-09-17; shift 2 of week A: the 20 min knife jam.
    answer = ask(conn, "how long was the single facer down on 2nd yesterday", Scope(day=FRIDAY))
    assert answer["status"] == "partial"
    assert "shift 2, production day Thu 2026-09-17" in answer["read_as"]
    text = _text(answer)
    assert "Knife jam at **20.0 min**" in text
    assert "Not in the records: single facer" in text


# --- square feet and good board said in Spanish ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("¿cuántos pies cuadrados de cartón bueno hicimos la semana pasada?", "square feet good board"),
        ("¿cuántos mil pies cuadrados hicimos ayer?", "msf"),
        ("cuánto cartón corrimos esta semana", "board"),
    ],
)
def test_spanish_volume_words_are_said_in_the_routers_words(question: str, words: str) -> None:
    assert words in canonical(question)


def test_spanish_good_square_feet_lead_the_weeks_good_area(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A's good area: 7,521,500 gross - 163,310 trim - 665.83 shear (17 ft x 470 in / 12) - 3,000 rejected
    # = 7,354,524.17 sq ft a day, x 5 = 36,772,620.8 sq ft.
    answer = ask(conn, "¿cuántos pies cuadrados de cartón bueno hicimos la semana pasada?", Scope(day=MONDAY))
    assert answer["status"] in ("complete", "partial")
    assert "week of 2026-09-14" in answer["read_as"]
    assert "**36,772,620.8 sq ft**" in _text(answer)
