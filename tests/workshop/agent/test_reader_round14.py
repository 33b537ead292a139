"""Round 14's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 14;
docs/workshop-agent.md, "The three rules" and "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import run_note
from .test_reader_round12 import moves
from .test_reader_round13 import creates

# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: one more of the same after a delivery ("y otro más igual", "and one more") is one hat more
# of the batch before, added to its card at check, like "otros 3 iguales".
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode", "language", "expected"),
    [
        ("Rosa Guamán entregó 3 estándar de 12 hileras y uno más", "typed", "es", ("w2", 4, "Standard", 12)),
        ("Manuel Delgado dejó 2 superfinos de 26 hileras y otro igual", "typed", "es", ("w3", 3, "Superfino", 26)),
        ("la carmen trajo dos finos de quince y otro mas igualito", "voice", "es", ("w4", 3, "Fino", 15)),
        ("Carmen Quizhpi delivered 4 finos of 15 rows and one more like that", "typed", "en", ("w4", 5, "Fino", 15)),
        ("Rosa Guamán brought in 2 standard of 11 rows, and another one like those", "typed", "en",
         ("w2", 3, "Standard", 11)),
    ],
)  # fmt: skip
def test_one_more_of_the_same_adds_one_hat_to_the_batch_before(note, mode, language, expected):
    run = run_note(note, mode, language)
    assert creates(run) == [(*expected, "check")]


def test_another_batch_with_its_own_rows_stays_a_batch_of_its_own():
    run = run_note("Manuel Delgado dejó 2 superfinos de 26 hileras y otro de 28", "typed", "es")
    assert creates(run) == [("w3", 2, "Superfino", 26, "high"), ("w3", 1, "Superfino", 28, "high")]


@pytest.mark.parametrize(
    ("note", "language", "named"),
    [
        ("Rosa Pillco entregó 2 finos de 18 hileras, ya le cancelé.", "es", "ya le cancelé"),
        ("Rosa Pillco delivered 2 finos of 18 rows, I already paid her.", "en", "I already paid her"),
    ],
)
def test_a_payment_beside_a_delivery_is_named_unread_never_a_denial(note, language, named):
    run = run_note(note, "typed", language)
    assert creates(run) == [("w1", 2, "Fino", 18, "high")]
    summary = run.response["summary"]
    assert named in summary
    assert "no pasó" not in summary and "did not happen" not in summary


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: a correction with the new value first and the old one after "no" ("eran cuatro, no
# tres") replaces the value it names; said on the next line after an apology it reaches back, at check.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Rosa Guamán entregó 5 estándar de 12 hileras\nperdón, eran seis, no cinco", "es"),
        ("Rosa Guamán entregó 5 estándar de 12 hileras.\nPerdón, eran seis no cinco.", "es"),
        ("Rosa Guamán delivered 5 standard of 12 rows\nsorry, it was six not five", "en"),
    ],
)
def test_a_correction_naming_the_value_it_takes_back_on_the_next_line_is_read_at_check(note, language):
    run = run_note(note, "typed", language)
    assert creates(run) == [("w2", 6, "Standard", 12, "check")]


@pytest.mark.parametrize(
    ("note", "language", "expected"),
    [
        ("Rosa Guamán entregó 5 estándar de 12 hileras, perdón, eran seis no cinco", "es", ("w2", 6, "Standard", 12)),
        ("Carmen Quizhpi delivered 3 finos of 16 rows, sorry, four not three", "en", ("w4", 4, "Fino", 16)),
        ("Carmen Quizhpi entregó 3 finos de 16 hileras, perdón, eran diecisiete no dieciséis", "es",
         ("w4", 3, "Fino", 17)),
    ],
)  # fmt: skip
def test_a_correction_naming_the_value_it_takes_back_in_its_sentence_replaces_it(note, language, expected):
    run = run_note(note, "typed", language)
    assert creates(run) == [(*expected, "high")]


def test_a_new_value_after_no_is_still_a_denial_when_it_names_nothing_said():
    run = run_note("El TQ-7F3K2 pasó a hormado, no a terminado", "typed", "es")
    assert moves(run) == [("TQ-7F3K2", "Blocking", "high")]


# ---------------------------------------------------------------------------------------------------------
# A plan told in the past ("iba a lavar", "pensaba pasarlo", "quería", "was going to", "wanted to") is a plan:
# no card.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Carmen Quizhpi dijo que iba a pasar el TQ-1P9KD a lavado en la tarde.", "es"),
        ("Manuel pensaba pasar el TQ-8H6RT a terminado hoy.", "es"),
        ("Doña Rosa quería lavar el TQ-7F3K2 hoy mismo.", "es"),
        ("Rosa Guamán iba a traer 3 estándar de 12 hileras.", "es"),
        ("Manuel said he was going to move TQ-8H6RT to finished.", "en"),
        ("Carmen wanted to wash TQ-1P9KD this afternoon.", "en"),
        ("Rosa Guamán was planning to bring in 3 standard of 12 rows.", "en"),
        ("Manuel meant to move TQ-8H6RT to finished today.", "en"),
    ],
)
def test_a_plan_told_in_the_past_makes_no_card(note, language):
    run = run_note(note, "typed", language)
    assert run.saved == []
    assert not {"propose_advance_stage", "propose_create_hats"} & set(run.tools_called)


def test_a_report_after_a_plan_told_in_the_past_is_still_read():
    run = run_note("Carmen iba a lavar el TQ-7F3K2, pero el TQ-1P9KD ya pasó a lavado.", "typed", "es")
    assert moves(run) == [("TQ-1P9KD", "Washing", "high")]


def test_wanting_to_tell_of_a_delivery_is_no_plan():
    run = run_note("I wanted to let you know that Rosa Pillco delivered 3 finos of 18 rows.", "typed", "en")
    assert creates(run) == [("w1", 3, "Fino", 18, "high")]
