"""Round 11's last misses and round 12's, by class, each in words of our own, Spanish and English
(evals/README.md, rounds 11 and 12; docs/workshop-agent.md, "What the reader understands, by class")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import batches, run_note


def moves(run):
    """Each saved move as (hat, stage, confidence)."""
    return [
        (c["payload"]["hat_code"], c["payload"]["to_stage"], c["confidence"])
        for c in run.saved
        if c["type"] == "advance_stage"
    ]


def flags(run):
    """Each saved flag as (hat, kind)."""
    return [(c["payload"]["hat_code"], c["payload"]["kind"]) for c in run.saved if c["type"] == "flag_issue"]


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-7F3K2 and TQ-7F3KA both went to washing.", "en"),
        ("El TQ-7F3K2 y el TQ-7F3KA ambos pasaron a lavado.", "es"),
    ],
)
def test_both_right_after_two_codes_points_at_nothing(note, language):
    run = run_note(note, "typed", language)
    assert moves(run) == [("TQ-7F3K2", "Washing", "high"), ("TQ-7F3KA", "Washing", "high")]


def test_both_after_a_sentence_is_still_a_reference():
    run = run_note("TQ-7F3K2 and TQ-7F3KA are here. Both went to washing.")
    assert moves(run) == [("TQ-7F3K2", "Washing", "check"), ("TQ-7F3KA", "Washing", "check")]


@pytest.mark.parametrize(
    "note",
    [
        "el tq 4k9d1 dice fino pero tiene doce hileras, y tiene una mancha en el ala",
        "TQ-4K9D1 is labelled fino but has 12 rows, and the crown is dented",
    ],
)
def test_a_grade_mismatch_and_a_problem_of_one_hat_are_two_flags(note):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch"), ("TQ-4K9D1", "other")]


def test_a_grade_mismatch_said_twice_is_one_flag():
    run = run_note("Al TQ-4K9D1 le conté 12 hileras y está como fino, no cuadra el grado", "typed", "es")
    assert flags(run) == [("TQ-4K9D1", "grade_mismatch")]


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        (
            "manuel delgado trajo dos superfinos de veinticuatro, no, de veintiseis, y la carmen tres finos de dieciseis",
            [("w3", 2, "Superfino", 26), ("w4", 3, "Fino", 16)],
        ),
        (
            "Rosa Pillco brought 4 finos of 16, sorry, of 17, Carmen Quizhpi dropped off 2 finos of 18",
            [("w1", 4, "Fino", 17), ("w4", 2, "Fino", 18)],
        ),
    ],
)
def test_a_corrected_value_ends_at_its_clause(note, expected):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert sorted(batches(run)) == sorted(expected)


@pytest.mark.parametrize(
    "note",
    [
        "carmen quizhpi trajo 3 estandar de 16 porque no le alcanzo el tiempo",
        "Carmen Quizhpi brought 3 standard of 16 because she could not finish the others",
    ],
)
def test_a_no_in_the_reason_after_because_denies_only_the_reason(note):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert [(c["type"], c["status"]) for c in run.saved] == [("create_hat", "blocked")]
    assert batches(run) == [("w4", 3, "Standard", 16)]


def test_a_reports_polite_opening_and_a_weekday_are_filler():
    run = run_note(
        "Buenas tardes, le informo lo del día de hoy, martes. El TQ-8H6RT pasó a terminado.", "typed", "es"
    )
    assert moves(run) == [("TQ-8H6RT", "Finished", "high")]
    assert "no pude leer" not in run.response["summary"]


@pytest.mark.parametrize(
    ("note", "language", "counted"),
    [
        (
            "ya me voy. la rosa vino a conversar. don manuel vino a cobrar. la paja llego humeda.",
            "es",
            "2 partes más",
        ),
        ("I'm off. Rosa came to chat. Manuel came to get paid. The straw is damp.", "en", "2 more parts"),
        ("ya me voy. la rosa vino a conversar. don manuel vino a cobrar.", "es", "1 parte más"),
    ],
)
def test_unread_parts_past_two_are_counted_in_the_summary(note, language, counted):
    summary = run_note(note, "voice" if note.islower() else "typed", language).response["summary"]
    assert summary.endswith(f" {counted}.")
