"""The reader's round-20 classes (evals/shifts/blind-r20.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a prescription in any wording is qualified; one crew held to another
("worse than crew A") compares the crews; a group said to be going worse or better in Spanish ("anda peor")
ranks the groups; a follow-up said as an order ("do the same for bond") is no yes/no; a week or month reckoned
from a moment the dates layer cannot place ("the week after Christmas") is never this week (docs/shifts-agent.md,
"The three rules", "Reading", "Comparisons over a window").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21; every full day runs the
same five setups, crew A on shift 1, crew B on shift 2, crew C on shift 3.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.answers import refusals
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.planning.accounting import account, yes_no_asked
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.prescriptions import prescribed
from shopfloor.shifts.planning.reading import canonical
from shopfloor.shifts.planning.router import route

MONDAY = date(2026, 9, 21)
FRIDAY = date(2026, 9, 18)


def ask(
    conn: duckdb.DuckDBPyConnection, question: str, scope: Scope, after: str | None = None
) -> dict[str, Any]:
    answer: dict[str, Any] = investigate(question, scope, conn, after=after).as_dict()
    assert invariants(answer) == []
    return answer


def _routed(question: str, scope: Scope) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def _text(answer: dict[str, Any]) -> str:
    return " ".join(s["text"] for s in answer["sections"])


# --- a prescription in any wording ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("what adjustment stops the jams", True),
        ("what do we have to do to get rid of the splice misses", True),
        ("what can we do about warp on 2nd", True),
        ("how can we cut knife jam downtime", True),
        ("how to reduce the bond rejects", True),
        ("what should we change on the upper knife", True),
        ("what needs to change on 3rd shift", True),
        ("¿Qué hacemos para que ya no se atore la cuchilla?", True),
        ("que tenemos que cambiar en el empalme", True),
        ("¿Cómo evitamos los atascos de cuchilla?", True),
        ("how much knife jam downtime yesterday", False),
        ("what did the crew do on 2nd shift", False),
        ("how did we do last week", False),
        ("¿qué pasó en el segundo turno?", False),
    ],
)
def test_a_prescription_is_read_in_any_wording(question: str, asked: bool) -> None:
    assert prescribed(question, canonical(question)) is asked


def test_what_to_do_about_the_knife_jams_shows_them_and_says_so(conn: duckdb.DuckDBPyConnection) -> None:
    # Friday: the upper knife jams for 10 min on shift 1 and 20 min on shift 2, each shift's row shown.
    answer = ask(conn, "what do we need to do to stop the knife jams", Scope(day=FRIDAY))
    assert answer["status"] == "partial"
    text = _text(answer)
    assert "Knife jam: **10.0 min**" in text and "Knife jam: **20.0 min**" in text
    assert refusals.NO_PRESCRIPTION in text


# --- one crew held to another ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "measure", "by"),
    [
        ("was crew B worse than crew A on rejects last week?", "compare_groups", "crew"),
        ("is crew C slower than crew A this month", "compare_groups", "crew"),
        ("was 3rd shift worse than 1st on downtime yesterday", "compare_shifts", None),
    ],
)
def test_one_crew_worse_than_another_compares_the_crews(question: str, measure: str, by: str | None) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.by) == (measure, by)


def test_crew_b_worse_than_crew_a_lists_both_and_names_the_verdict(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "was crew B worse than crew A on rejects last week?", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    text = _text(answer)
    assert "Crew A" in text and "Crew B" in text
    assert "2026-09-14" in text


# --- Spanish: a group going worse or better -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("que turno anda peor este mes", "was worst"),
        ("¿cuál turno salió mejor la semana pasada?", "was best"),
        ("que cuadrilla va peor", "was worst"),
    ],
)
def test_spanish_going_worse_is_a_ranking_word(question: str, words: str) -> None:
    assert words in canonical(question)


def test_which_shift_is_going_worst_this_month_compares_the_shifts() -> None:
    plan = _routed("¿qué turno anda peor este mes?", Scope(day=MONDAY, shift=3))
    assert (plan.measure, plan.by, plan.window, plan.shift) == ("compare_groups", "shift", "month", None)


# --- a follow-up said as an order ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("do the same for bond", False),
        ("do that for crew B", False),
        ("do it for last week", False),
        ("do we hit target on 2nd?", True),
        ("do they run 26-C faster on 1st shift?", True),
    ],
)
def test_do_the_same_is_no_yes_no(question: str, verdict: bool) -> None:
    assert yes_no_asked(question) is verdict


def test_do_the_same_for_bond_keeps_the_share(conn: duckdb.DuckDBPyConnection) -> None:
    # Friday's rejects: 1,000 sq ft of warp on shift 1 and 2,000 of bond on shift 2; bond is 2,000 / 3,000.
    after = "/a?day=2026-09-18&measure=waste&reject=warp&ask=share"
    answer = ask(conn, "do the same for bond", Scope(day=FRIDAY), after=after)
    assert answer["status"] == "complete"
    text = _text(answer)
    assert "66.67 %" in text
    assert "of the rejected area" in text


# --- a window reckoned from a moment the dates layer cannot place ------------------------------------------


@pytest.mark.parametrize(
    ("question", "window", "unplaced"),
    [
        ("the week after Christmas, what was dry end waste", "day", "christmas"),
        ("downtime the month before thanksgiving", "day", "thanksgiving"),
        ("dry end waste the week", "week", None),
    ],
)
def test_a_window_after_an_unplaced_moment_is_never_this_one(
    question: str, window: str, unplaced: str | None
) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert plan.window == window
    lines = " ".join(account(question, plan).lines())
    assert (unplaced is not None and f"Not understood: {unplaced}" in lines) or (
        unplaced is None and not lines
    )
