"""The reader's round-21 classes (evals/shifts/blind-r21.yaml), in our own words, English and Spanish,
against the hand-built store (conftest.py): a Spanish "cuánto" (singular) asks an amount, never a count, while
"cuántos"/"cuántas" count; a story's ask starts at a share, a comparison, how a window went or a yes/no after
", so", its asides are filler; a reaction before a follow-up asks nothing (docs/shifts-agent.md, "Reading",
"Dates as people say them").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21.
"""

from __future__ import annotations

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import account, more_values
from shopfloor.shifts.planning.follow_ups import is_follow_up
from shopfloor.shifts.planning.reading import canonical
from shopfloor.shifts.planning.stories import asked_clause
from tests.shifts.investigation.reading_helpers import routed as _routed

MONDAY = date(2026, 9, 21)


# --- "cuánto" is an amount, "cuántos" a count ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said", "not_said"),
    [
        ("cuanto tiempo muerto tuvimos ayer", "how much", "how many"),
        ("¿cuánta merma hubo el lunes?", "how much", "how many"),
        ("¿cuántos paros hubo ayer?", "how many", "how much"),
        ("cuantas veces se atasco la cuchilla", "how many", "how much"),
    ],
)
def test_spanish_singular_cuanto_is_an_amount(question: str, said: str, not_said: str) -> None:
    words = canonical(question)
    assert said in words
    assert not_said not in words


def test_operator_downtime_the_week_before_last_is_minutes_not_a_count() -> None:
    # From Monday 2026-09-21 the week before last is week B, which starts on Monday 2026-09-07.
    plan = _routed("cuanto tiempo muerto de operador hubo la semana antepasada?", Scope(day=MONDAY))
    assert plan.address() == "/a?window=week&anchor=2026-09-07&measure=pareto&by=kind&kind=Operator"


def test_how_many_stops_the_week_before_last_stays_a_count() -> None:
    plan = _routed("¿cuántos paros de operador hubo la semana antepasada?", Scope(day=MONDAY))
    assert plan.count
    assert "count=1" in plan.address()


# --- a story before the ask: its asides are context -----------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        (
            "my counterpart on days gloats every morning over his coffee, so settle it and compare third "
            "shift with second shift yesterday",
            "compare third shift with second shift yesterday",
        ),
        (
            "ten years I've told them the same thing and nobody hears it, so humor me, what percent of the "
            "downtime was splices on friday",
            "what percent of the downtime was splices on friday",
        ),
        (
            "the sheets came off curled like a taco shell, you know the look, so what share of the rejects "
            "were down warp today",
            "what share of the rejects were down warp today",
        ),
        (
            "last week was a zoo, we were short two people and my truck broke down, anyhow how did last "
            "week go on third shift",
            "how did last week go on third shift",
        ),
    ],
)
def test_the_ask_after_a_story_is_its_clause(question: str, clause: str) -> None:
    # A leading "so" belongs to the asking words ("so what share …"), never to the story.
    assert asked_clause(canonical(question)).removeprefix("so ") == clause


def test_an_aside_in_the_asking_clause_is_no_unknown_word() -> None:
    question = (
        "upstairs keeps saying we are always over on maintenance, I swear they never look, so tell me "
        "straight, was maintenance downtime over the band on third shift yesterday?"
    )
    plan = _routed(question, Scope(day=MONDAY))
    assert account(question, plan).lines() == []


def test_how_the_week_before_last_went_after_a_story_is_its_kpis() -> None:
    # From Monday 2026-09-21 the week before last is week B, Monday 2026-09-07.
    question = (
        "the week before last was a zoo, we were short two people and my truck broke down, anyhow how did the "
        "week before last go on third shift"
    )
    plan = _routed(question, Scope(day=MONDAY))
    assert plan.address() == "/a?window=week&anchor=2026-09-07&shift=3&measure=kpis"


# --- a reaction before a follow-up, "q" for "qué", "estimated" good area -----------------------------------


@pytest.mark.parametrize(
    ("question", "follows"),
    [
        ("right, figured as much, same old story, so what about by kind", True),
        ("alright, i see, now what about 3rd", True),
        ("the splices were bad, so show downtime by place", False),
    ],
)
def test_a_reaction_before_a_follow_up_asks_nothing(question: str, follows: bool) -> None:
    assert is_follow_up(canonical(question)) is follows
    assert "Not understood" not in " ".join(account(question).lines())


def test_q_typed_for_que_asks_which_crew() -> None:
    assert "which crew" in canonical("q cuadrilla tuvo mas paros la semana pasada")
    assert "which shift" in canonical("q turno tuvo mas rechazos")


def test_estimated_good_area_is_understood() -> None:
    question = "estimated good sq ft yesterday"
    plan = _routed(question, Scope(day=MONDAY))
    assert plan.measure == "volume"
    assert account(question, plan).lines() == []


def test_exactly_said_first_in_the_sentence_names_the_cut() -> None:
    # "Exactly" capitalised at the start of the question is the same word: every reason is listed, no cut of 2.
    question = "Exactly the top 2 downtime reasons by stop count last week."
    plan = _routed(question, Scope(day=MONDAY))
    missing, _ = more_values(question, plan)
    assert "the 2 asked (every reason is listed)" in missing


def test_a_yes_no_after_the_story_s_so_is_the_asking_clause() -> None:
    question = (
        "back when I started we called 90 percent of target a fair night, so did we run around 90% of target "
        "on third shift yesterday?"
    )
    assert asked_clause(canonical(question)).startswith("did we run around 90")
