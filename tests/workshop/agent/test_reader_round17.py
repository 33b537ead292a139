"""Round 17's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 17;
docs/workshop-agent.md, "The three rules" and "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import run_note
from .test_reader_round12 import flags, moves
from .test_reader_round13 import creates

# ---------------------------------------------------------------------------------------------------------
# "que" and "porque" as chats type them ("q", "k", "ke", "xq", "pq", "porq") are the words to every rule
# that looks for them: a report passed on, a hedge, what is due, a question passed on, a reason.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "manuel delgado dice k el tq1p9kd ya esta en lavado",
        "me conto q el tq1p9kd ya paso a lavado",
        "creo ke el tq1p9kd ya paso a lavado",
    ],
)
def test_a_texted_que_still_passes_on_or_doubts_the_move(note):
    assert moves(run_note(note, "typed", "es")) == [("TQ-1P9KD", "Washing", "check")]


@pytest.mark.parametrize(
    "note",
    [
        "hay q lavar el tq1p9kd",
        "hay k pasar el tq1p9kd a lavado",
        "carmen pregunta q si ya lavaron el tq1p9kd",
    ],
)
def test_a_texted_que_still_says_what_is_due_or_asked(note):
    assert moves(run_note(note, "typed", "es")) == []


def test_a_texted_porque_keeps_a_denied_reason_to_itself():
    run = run_note("rosa pillco trajo 2 finos de 17 pq no le alcanzo la paja", "typed", "es")
    assert creates(run) == [("w1", 2, "Fino", 17, "high")]


def test_the_q_of_a_spelled_prefix_is_still_a_code():
    assert moves(run_note("t q 1p9kd ya paso a lavado", "typed", "es"))[0][:2] == ("TQ-1P9KD", "Washing")


# ---------------------------------------------------------------------------------------------------------
# A clause that opens with a time still to come today ("después del almuerzo", "en la tarde", "this
# afternoon") and goes on with a verb not in the past is a plan; with a preterite, or said after the verb,
# the time only says when it happened.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("En la tarde lavo el TQ-1P9KD.", "es"),
        ("despues de comer paso el tq1p9kd a lavado", "es"),
        ("This afternoon I take TQ-1P9KD to washing.", "en"),
    ],
)
def test_a_time_to_come_before_a_present_verb_is_a_plan(note, language):
    assert moves(run_note(note, "typed", language)) == []


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Esta tarde pasó el TQ-1P9KD a lavado.", "es"),
        ("El TQ-1P9KD pasó a lavado después del almuerzo.", "es"),
        ("After lunch TQ-1P9KD moved to washing.", "en"),
    ],
)
def test_a_time_with_a_past_verb_is_when_it_happened(note, language):
    assert moves(run_note(note, "typed", language)) == [("TQ-1P9KD", "Washing", "high")]


# ---------------------------------------------------------------------------------------------------------
# Idioms that doubt the speaker's own memory ("if I'm not mistaken", "as far as I know", "si no me
# equivoco", "que yo sepa") are hedges: the event is read at check, and their "not" denies nothing.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("If I am not mistaken, TQ-1P9KD went to washing yesterday.", "en"),
        ("TQ-1P9KD went to washing, as far as I know.", "en"),
        ("Si no me equivoco, el TQ-1P9KD pasó a lavado.", "es"),
        ("El TQ-1P9KD ya está en lavado, que yo sepa.", "es"),
    ],
)
def test_a_hedge_on_ones_memory_lowers_the_move(note, language):
    assert moves(run_note(note, "typed", language)) == [("TQ-1P9KD", "Washing", "check")]


# ---------------------------------------------------------------------------------------------------------
# "I meant" takes back the value before it like "I mean", after an apology too, with its commas typed or
# said aloud.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode"),
    [
        ("manuel delgado brought in three superfinos of twenty four rows comma sorry comma i meant twenty six "
         "rows period", "voice"),
        ("Manuel Delgado brought in 3 superfinos of 24 rows, I meant 26 rows.", "typed"),
    ],
)  # fmt: skip
def test_i_meant_replaces_the_value_before_it(note, mode):
    assert creates(run_note(note, mode, "en")) == [("w3", 3, "Superfino", 26, "high")]


# ---------------------------------------------------------------------------------------------------------
# A hat named by reference ("el segundo", "it") says its grade against its rows as a hat named by its code
# does; a problem said after it in a clause of its own is a flag on the same hat; a reason that reports a
# problem ("…porque tiene una mancha") is a flag even when the move before it is denied.
# ---------------------------------------------------------------------------------------------------------


def test_a_reference_says_its_grade_against_its_rows():
    run = run_note(
        "Miré el TQ-1P9KD y el TQ-4K9D1, el segundo dice fino pero tiene 12 hileras.", "typed", "es"
    )
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch")]
    assert {c["confidence"] for c in run.saved} == {"check"}


def test_a_problem_after_it_is_another_flag_on_the_same_hat():
    note = "I looked at TQ-4K9D1. It doesn't have enough rows for a fino, and there is a tear in the brim."
    run = run_note(note, "typed", "en")
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch"), ("TQ-4K9D1", "other")]
    assert {c["confidence"] for c in run.saved} == {"check"}


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("No pasé el TQ-1P9KD a lavado porque tiene una mancha en la copa.", "es"),
        ("I did not send TQ-1P9KD to washing because it has a tear in the brim.", "en"),
    ],
)
def test_a_reason_that_reports_a_problem_is_a_flag_not_a_move(note, language):
    run = run_note(note, "typed", language)
    assert moves(run) == []
    assert flags(run) == [("TQ-1P9KD", "other")]


# ---------------------------------------------------------------------------------------------------------
# The words that open a time said before a name ("On Monday", "Since Friday") are never part of it.
# ---------------------------------------------------------------------------------------------------------


def test_a_time_before_the_name_is_not_the_name():
    run = run_note("On Monday Manuel Delgado brought in 2 superfinos of 24 rows.", "typed", "en")
    assert creates(run) == [("w3", 2, "Superfino", 24, "high")]


def test_two_weavers_with_both_are_asked_about():
    run = run_note(
        "On Friday Manuel Delgado and Rosa Guamán both brought in 3 finos of 17 rows.", "typed", "en"
    )
    (card,) = run.saved
    assert card["status"] == "question"
    assert sorted(c["weaver_id"] for c in card["payload"]["question"]["choices"]) == ["w2", "w3"]


def test_a_reason_that_denies_a_problem_raises_no_flag():
    run = run_note("El TQ-1P9KD pasó a lavado porque ya no tenía manchas.", "typed", "es")
    assert moves(run) == [("TQ-1P9KD", "Washing", "high")]
    assert flags(run) == []
