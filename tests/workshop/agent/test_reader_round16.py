"""Round 16's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 16;
docs/workshop-agent.md, "The three rules" and "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import run_note
from .test_reader_round12 import flags, moves
from .test_reader_round13 import creates

# ---------------------------------------------------------------------------------------------------------
# Who delivered, when someone else passes the news on: the weaver is the person named in what is passed on,
# never the one who passed it on ("Rosa dice que Carmen entregó…"); that one only when nobody else is named.
# In a dictated note the name said before a verb of coming ("vino a dejar", "pasó a dejar") is the weaver, and
# a verb of saying is never part of a name.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode", "language", "expected"),
    [
        ("Rosa dice que Carmen Quizhpi entregó 2 finos de 16 y 1 superfino de 24.", "typed", "es",
         [("w4", 2, "Fino", 16, "check"), ("w4", 1, "Superfino", 24, "check")]),
        ("Manuel Delgado told us that Rosa Guamán brought in 2 standard of 10 rows.", "typed", "en",
         [("w2", 2, "Standard", 10, "check")]),
        ("my neighbour says carmen quizhpi dropped off three finos of seventeen rows", "voice", "en",
         [("w4", 3, "Fino", 17, "check")]),
        ("cuenta el vecino que el manuel delgado vino a dejar dos superfinos de veinticinco", "voice", "es",
         [("w3", 2, "Superfino", 25, "check")]),
    ],
)  # fmt: skip
def test_a_passed_on_delivery_is_the_named_weavers(note, mode, language, expected):
    assert creates(run_note(note, mode, language)) == expected


def test_the_one_who_passes_it_on_delivered_when_nobody_else_is_named():
    run = run_note("Rosa Pillco dice que ya entregó los 3 finos de 18.", "typed", "es")
    assert creates(run) == [("w1", 3, "Fino", 18, "check")]


@pytest.mark.parametrize(
    "note",
    [
        "la rosa pillco pasó a dejar tres finos de diecisiete hileras",
        "bueno, la rosa pillco vino a entregar tres finos de diecisiete hileras",
    ],
)
def test_a_dictated_name_before_a_verb_of_coming_is_the_weaver(note):
    assert creates(run_note(note, "voice", "es")) == [("w1", 3, "Fino", 17, "high")]


# ---------------------------------------------------------------------------------------------------------
# A row count ends its batch: "y media docena" after it is the next batch, never half a dozen more of the
# row count ("de 17 y media docena de estándar" is no 17 dozen and a half).
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language", "expected"),
    [
        ("Carmen Quizhpi entregó 3 finos de 17 y media docena de estándar de 11.", "es",
         [("w4", 3, "Fino", 17, "high"), ("w4", 6, "Standard", 11, "high")]),
        ("Rosa Guamán brought in 2 standard of 10 and a half dozen finos of 16.", "en",
         [("w2", 2, "Standard", 10, "high"), ("w2", 6, "Fino", 16, "high")]),
    ],
)  # fmt: skip
def test_half_a_dozen_after_a_row_count_is_the_next_batch(note, language, expected):
    assert creates(run_note(note, "typed", language)) == expected


def test_one_and_a_half_dozen_is_still_one_number():
    assert creates(run_note("Rosa Guamán trajo una y media docenas de estándar de 10.", "typed", "es")) == [
        ("w2", 18, "Standard", 10, "high")
    ]


# ---------------------------------------------------------------------------------------------------------
# A bare "no" said right before a correction word ("no, me equivoqué", "no, my bad") is part of the
# correction: the value after it replaces the one before, and nothing is denied.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("El TQ-1P9KD pasó a hormado, no, me equivoqué, a lavado.", "es"),
        ("TQ-1P9KD went to blocking, no, my bad, to washing.", "en"),
    ],
)
def test_no_before_a_correction_word_is_the_correction(note, language):
    assert moves(run_note(note, "typed", language)) == [("TQ-1P9KD", "Washing", "high")]


# ---------------------------------------------------------------------------------------------------------
# A comma said aloud ("coma") is a comma to every rule, corrections included.
# ---------------------------------------------------------------------------------------------------------


def test_a_spoken_comma_sets_off_a_correction_that_names_what_it_takes_back():
    note = "la rosa guamán trajo cuatro estándar de diez hileras coma perdón eran cinco no cuatro punto"
    assert creates(run_note(note, "voice", "es")) == [("w2", 5, "Standard", 10, "high")]


def test_a_spoken_comma_sets_off_a_corrected_stage():
    note = "el tq 1p9kd pasó a hormado coma no coma perdón coma a lavado punto"
    assert moves(run_note(note, "voice", "es")) == [("TQ-1P9KD", "Washing", "high")]


# ---------------------------------------------------------------------------------------------------------
# A grade said against its rows in words ("marcado como fino pero le faltan hileras") and a problem of
# another kind said of the same hat are two flags; "no coincide el grado" beside a problem stays one.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        (
            "El TQ-4K9D1 está marcado como fino pero no le llegan las hileras, y además la copa está sucia.",
            "es",
        ),
        ("TQ-4K9D1 is labelled fino but the rows fall short, and the crown is dirty.", "en"),
    ],
)
def test_a_grade_against_its_rows_and_another_problem_are_two_flags(note, language):
    run = run_note(note, "typed", language)
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch"), ("TQ-4K9D1", "other")]


def test_a_problem_beside_a_grade_that_does_not_match_is_one_flag():
    run = run_note("El TQ-4K9D1 tiene la copa sucia, no coincide el grado.", "typed", "es")
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch")]


# ---------------------------------------------------------------------------------------------------------
# A code's prefix is part of the code: a dot after a code that opens its sentence ("Y el TQ-9M2XA. pasó…")
# does not end the sentence, as after a bare code.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode"),
    [("Ya el TQ-9M2XA. pasó a blanqueo.", "typed"), ("y el tq 9m2xa. pasó a blanqueo", "voice")],
)
def test_a_dot_after_a_prefixed_code_does_not_end_the_sentence(note, mode):
    assert moves(run_note(note, mode, "es")) == [("TQ-9M2XA", "Bleaching", "high")]


# ---------------------------------------------------------------------------------------------------------
# A part of a total is never a total itself: "4 finos, 2 de 16, 1 de 18 y 1 de 19" are three cards, the 2 of
# 16 not read as said again by the two after it.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language", "expected"),
    [
        ("Carmen Quizhpi trajo 4 finos, 2 de 16, 1 de 18 y 1 de 19.", "es",
         [("w4", 2, "Fino", 16, "high"), ("w4", 1, "Fino", 18, "high"), ("w4", 1, "Fino", 19, "high")]),
        ("Rosa Pillco brought in 6 finos: 2 at 15 rows, 1 at 17, 1 at 19 and 2 at 20.", "en",
         [("w1", 2, "Fino", 15, "high"), ("w1", 1, "Fino", 17, "high"), ("w1", 1, "Fino", 19, "high"),
          ("w1", 2, "Fino", 20, "high")]),
    ],
)  # fmt: skip
def test_the_first_part_of_a_total_keeps_its_own_rows(note, language, expected):
    assert creates(run_note(note, "typed", language)) == expected


# ---------------------------------------------------------------------------------------------------------
# A first name of its own is no nickname: "Rosario" (and her "Chayo") is another person than Rosa, asked.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Rosario Guamán", "Chayo Pillco"])
def test_a_first_name_of_its_own_is_asked_not_matched(name):
    run = run_note(f"{name} entregó 2 estándar de 12 hileras.", "typed", "es")
    assert [(c["type"], c["status"], c["payload"]["weaver_id"]) for c in run.saved] == [
        ("create_hat", "question", None)
    ]


# ---------------------------------------------------------------------------------------------------------
# Leaving a stage in English ("came out of washing", "is out of bleaching") names the stage the hat left:
# no move, and the summary says what it did not read.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "named"),
    [
        ("TQ-1P9KD came out of washing this morning.", "came out of washing"),
        ("TQ-1P9KD is out of bleaching now.", "is out of bleaching"),
    ],
)
def test_a_hat_leaving_a_stage_is_no_move(note, named):
    run = run_note(note, "typed", "en")
    assert run.saved == []
    assert named in run.response["summary"]
