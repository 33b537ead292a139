"""Round 18's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 18;
docs/workshop-agent.md, "The three rules" and "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import run_note
from .test_reader_round12 import moves
from .test_reader_round13 import creates

# ---------------------------------------------------------------------------------------------------------
# Confidently wrong first: what ought to have happened ("should have brought", "was supposed to have moved",
# "debería haber entregado", "debía pasar", "supposedly") is not said to have happened: never high.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Rosa Pillco should have brought 2 Fino hats at 17 rows yesterday.", "en"),
        ("Rosa Pillco should've brought 2 Fino hats at 17 rows.", "en"),
        ("Rosa Pillco supposedly brought 2 Fino hats at 17 rows.", "en"),
        ("rosa pillco debería haber entregado 2 finos de 17", "es"),
    ],
)
def test_a_delivery_that_ought_to_have_happened_is_only_a_check(note, language):
    assert creates(run_note(note, "typed", language)) == [("w1", 2, "Fino", 17, "check")]


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-1P9KD should have gone to washing this morning.", "en"),
        ("el tq1p9kd debía pasar a lavado", "es"),
        ("el tq1p9kd tenía que pasar a lavado", "es"),
    ],
)
def test_a_move_that_ought_to_have_happened_is_only_a_check(note, language):
    assert moves(run_note(note, "typed", language)) == [("TQ-1P9KD", "Washing", "check")]


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Rosa Pillco was supposed to deliver 2 Fino hats at 17 rows.", "en"),
        ("rosa pillco tenía que traer 2 finos de 17", "es"),
        ("rosa pillco debía entregar 2 finos de 17", "es"),
    ],
)
def test_a_delivery_that_was_due_is_never_read_as_made(note, language):
    assert [c for c in creates(run_note(note, "typed", language)) if c[4] == "high"] == []


def test_a_move_that_was_due_is_never_read_as_made():
    run = run_note("TQ-1P9KD was supposed to have moved to washing.", "typed", "en")
    assert [m for m in moves(run) if m[2] == "high"] == []


def test_a_bare_should_is_still_a_plan():
    assert moves(run_note("TQ-1P9KD should move to washing tomorrow.", "typed", "en")) == []


# ---------------------------------------------------------------------------------------------------------
# A dictated (all lower-case) report names who passed it on right before the report's words; when what is
# passed on names nobody, the delivery is theirs, at check ("carmen quizhpi dice que ya entregó…").
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("rosa pillco dice que ya entregó 2 finos de 17", "es"),
        ("la rosa pillco me mandó un audio que dejó 2 finos de 17", "es"),
        ("oye la rosa pillco me dijo que ya trajo 2 finos de 17", "es"),
    ],
)
def test_a_dictated_report_is_the_delivery_of_who_passed_it_on(note, language):
    assert creates(run_note(note, "voice", language)) == [("w1", 2, "Fino", 17, "check")]


def test_a_dictated_report_still_gives_the_delivery_to_the_one_named_in_it():
    run = run_note("rosa pillco dice que carmen quizhpi entregó 3 finos de 16", "voice", "es")
    assert creates(run) == [("w4", 3, "Fino", 16, "check")]


def test_a_dictated_report_by_kin_names_no_weaver_for_sure():
    run = run_note("la hija de rosa pillco dice que ya dejó 2 finos de 17", "voice", "es")
    assert [c for c in creates(run) if c[0] == "w1" and c[4] == "high"] == []


# ---------------------------------------------------------------------------------------------------------
# A grade said with rows of another grade stays a grade mismatch when a clause after the rows says which
# grade they fit (", which is a Standard count", ", que es de estándar"): that clause explains, it is no grade.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-4K9D1 says Fino on the tag but has 12 rows, which is a Standard count.", "en"),
        ("el TQ-4K9D1 tiene etiqueta de fino pero tiene 12 hileras, que es de estándar", "es"),
    ],
)
def test_a_mismatch_explained_after_the_rows_is_still_a_mismatch(note, language):
    run = run_note(note, "typed", language)
    assert [(c["payload"]["hat_code"], c["payload"]["kind"]) for c in run.saved] == [
        ("TQ-4K9D1", "grade_mismatch")
    ]


# ---------------------------------------------------------------------------------------------------------
# "has been in blocking since…" says where the hat is now, as "is in blocking" does: a move.
# ---------------------------------------------------------------------------------------------------------


def test_has_been_in_a_stage_says_where_the_hat_is():
    run = run_note("TQ-1P9KD has been in washing since this morning.", "typed", "en")
    assert moves(run) == [("TQ-1P9KD", "Washing", "high")]


# ---------------------------------------------------------------------------------------------------------
# Another count offered after a comma with a hedge and a subject ("…, or maybe it was 3") doubts the count:
# a question, never either number.
# ---------------------------------------------------------------------------------------------------------


def test_or_maybe_it_was_another_count_asks_how_many():
    run = run_note("Carmen Quizhpi delivered 2 Fino hats at 16 rows, or maybe it was 3.", "typed", "en")
    assert [(c["status"], c["payload"]["quantity"]) for c in run.saved] == [("question", None)]
