"""Round 13's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 13;
docs/workshop-agent.md, "The three rules" and "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import batches, run_note
from .test_reader_round12 import flags, moves


def creates(run):
    """Each saved create card as (weaver, quantity, grade, rows, confidence)."""
    return [
        (p["weaver_id"], p["quantity"], p["grade"], p["rows_per_inch"], c["confidence"])
        for c in run.saved
        if c["type"] == "create_hat"
        for p in [c["payload"]]
    ]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong first: a hedge that opens a clause doubts what follows it, not the clause before.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode", "language"),
    [
        (
            "carmen quizhpi trajo tres finos de dieciseis hileras, y tal vez el tq 1p9kd ya paso a lavado",
            "voice",
            "es",
        ),
        ("Carmen Quizhpi trajo 3 finos de 16 hileras y creo que el TQ-1P9KD pasó a lavado", "typed", "es"),
        ("Carmen Quizhpi brought in 3 finos of 16 rows, and maybe TQ-1P9KD moved to washing", "typed", "en"),
    ],
)
def test_a_hedge_opening_a_later_clause_doubts_that_clause(note, mode, language):
    run = run_note(note, mode, language)
    assert creates(run) == [("w4", 3, "Fino", 16, "high")]
    assert moves(run) == [("TQ-1P9KD", "Washing", "check")]


def test_a_hedge_said_after_a_move_still_doubts_that_move():
    run = run_note(
        "El TQ-1P9KD pasó a lavado, creo, y Carmen Quizhpi trajo 3 finos de 16 hileras", "typed", "es"
    )
    assert moves(run) == [("TQ-1P9KD", "Washing", "check")]
    assert creates(run) == [("w4", 3, "Fino", 16, "high")]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: a stage given as a field of a code (a label, a table's cell) is no reported change.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "Resumen de hoy:\nTQ-1P9KD: lavado\nTQ-4K9D1: hormado",
        "End of day:\nTQ-1P9KD: washed\nTQ-4K9D1: blocked",
        "hat\tfrom\tto\nTQ-1P9KD\tweaving\twashing\nTQ-4K9D1\tbleaching\tblocking",
    ],
)
def test_a_stage_given_as_a_field_of_the_code_is_a_move_to_check(note):
    run = run_note(note, "typed", "es")
    assert sorted(moves(run)) == [("TQ-1P9KD", "Washing", "check"), ("TQ-4K9D1", "Blocking", "check")]


def test_a_stage_heading_over_its_codes_stays_licensed():
    run = run_note("Lavado: TQ-1P9KD, TQ-7F3KA", "typed", "es")
    assert moves(run) == [("TQ-1P9KD", "Washing", "high"), ("TQ-7F3KA", "Washing", "high")]


def test_a_report_after_the_codes_colon_keeps_its_confidence():
    run = run_note("TQ-1P9KD: ya pasó a lavado", "typed", "es")
    assert moves(run) == [("TQ-1P9KD", "Washing", "high")]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: an underscore in the prefix is an odd separator, like "TK-".
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [("tq_4k9d1 went to blocking", "en"), ("el TQ_4K9D1 pasó a hormado", "es")],
)
def test_an_underscore_in_the_prefix_lowers_the_move(note, language):
    run = run_note(note, "typed", language)
    assert moves(run) == [("TQ-4K9D1", "Blocking", "check")]


def test_the_prefix_itself_keeps_the_move_high():
    run = run_note("TQ-4K9D1 went to blocking", "typed", "en")
    assert moves(run) == [("TQ-4K9D1", "Blocking", "high")]


# ---------------------------------------------------------------------------------------------------------
# The safe misses.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("la carmen, eh, trajo tres finos de dieciseis", [("w4", 3, "Fino", 16)]),
        ("rosa pillco, este, entrego dos finos de dieciocho", [("w1", 2, "Fino", 18)]),
    ],
)
def test_a_pause_between_a_dictated_name_and_its_verb_is_no_part_of_the_name(note, expected):
    run = run_note(note, "voice", "es")
    assert batches(run) == expected


def test_a_range_after_a_dictated_name_and_a_pause_is_asked():
    run = run_note("la carmen, eh, dejo como tres o cuatro finos de dieciseis", "voice", "es")
    (card,) = run.saved
    assert (card["type"], card["status"], card["confidence"]) == ("create_hat", "question", "check")
    assert card["payload"]["quantity"] is None
    assert card["payload"]["rows_per_inch"] == 16


@pytest.mark.parametrize(
    "note",
    [
        "del tq 1p9kd y el tq 7f3ka uno ya paso a lavado",
        "del TQ-1P9KD y el TQ-7F3KA, una ya pasó a lavado, no sé cuál",
    ],
)
def test_uno_right_after_two_codes_is_one_of_them_asked(note):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert "propose_advance_stage" not in run.tools_called
    (card,) = run.saved
    assert card["status"] == "question"
    assert sorted(c["hat_code"] for c in card["payload"]["question"]["choices"]) == ["TQ-1P9KD", "TQ-7F3KA"]


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-1P9KD and TQ-7F3KA were both washed today.", "en"),
        ("TQ-1P9KD and TQ-7F3KA have both gone to washing.", "en"),
    ],
)
def test_both_after_two_codes_and_their_verb_points_at_nothing(note, language):
    run = run_note(note, "typed", language)
    assert moves(run) == [("TQ-1P9KD", "Washing", "high"), ("TQ-7F3KA", "Washing", "high")]


def test_both_after_another_clause_still_points_back():
    run = run_note("TQ-1P9KD and TQ-7F3KA came back, both moved to washing.", "typed", "en")
    assert moves(run) == [("TQ-1P9KD", "Washing", "check"), ("TQ-7F3KA", "Washing", "check")]


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Manuel's hat that is in blocking got scratched on the brim. That same hat went to finished.", "en"),
        ("El de Manuel que está en hormado tiene el ala rayada. Ese mismo sombrero pasó a terminado.", "es"),
    ],
)
def test_a_word_pointing_back_at_a_hat_named_by_its_weaver_finds_it_again(note, language):
    run = run_note(note, "typed", language)
    assert flags(run) == [("TQ-8H6RT", "other")]
    assert moves(run) == [("TQ-8H6RT", "Finished", "check")]


@pytest.mark.parametrize(
    "note",
    [
        "el de carmen q esta en blanqueo tiene una mancha en el ala",
        "el sombrero de manuel k esta en hormado tiene la copa rota",
    ],
)
def test_a_texted_relative_clause_says_where_the_hat_is(note):
    run = run_note(note, "typed", "es")
    assert [c["type"] for c in run.saved] == ["flag_issue"]
    assert "propose_advance_stage" not in run.tools_called
