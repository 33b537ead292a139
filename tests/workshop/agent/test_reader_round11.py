"""Round 11's misses by class, each in words of our own, Spanish and English (evals/README.md, round 11;
docs/workshop-agent.md, "What the reader understands, by class"). The rounds before are in
test_reader_classes.py and test_reader_round9.py, test_reader_round10.py."""

from __future__ import annotations

import pytest

from .test_reader_round10 import batches, run_note


def cards(run):
    """Each saved card as (type, status, confidence)."""
    return [(c["type"], c["status"], c["confidence"]) for c in run.saved]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong first.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("mi hermana me mando un audio que ya lavaron el 7f3k2", "es"),
        ("la vecina me escribio que ya lavaron el 7f3k2", "es"),
        ("Rosa sent me a voice note saying TQ-7F3K2 went to washing", "en"),
        ("Carmen texted me that TQ-7F3K2 moved to washing", "en"),
    ],
)
def test_a_message_relayed_by_phone_is_reported_speech(note, language):
    run = run_note(note, "voice" if note.islower() else "typed", language)
    assert [(c["type"], c["payload"]["hat_code"], c["confidence"]) for c in run.saved] == [
        ("advance_stage", "TQ-7F3K2", "check")
    ]


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        (
            "la rosa pillco trajo dos finos de dieciocho y el manuel tres superfinos de veintiseis",
            [("w1", 2, "Fino", 18), ("w3", 3, "Superfino", 26)],
        ),
        (
            "la rosa pillco trajo dos finos de dieciocho y uno de quince, y el manuel, este, dos superfinos de treinta",
            [("w1", 2, "Fino", 18), ("w1", 1, "Fino", 15), ("w3", 2, "Superfino", 30)],
        ),
        (
            "manuel delgado dejo un superfino de veinticuatro y la carmen quizhpi cuatro finos de dieciseis",
            [("w3", 1, "Superfino", 24), ("w4", 4, "Fino", 16)],
        ),
    ],
)
def test_a_dictated_batch_after_y_and_a_name_is_that_weavers(note, expected):
    assert sorted(batches(run_note(note, "voice", "es"))) == sorted(expected)


def test_a_name_said_alone_after_a_batch_is_not_that_batchs():
    run = run_note("la rosa pillco trajo dos finos de dieciocho, y el manuel", "voice", "es")
    assert batches(run) == [("w1", 2, "Fino", 18)]
    assert "manuel" in run.response["summary"]


@pytest.mark.parametrize(
    "note",
    [
        "pasaron a lavado:\n7f3k2\nmañana:\n2c5p0 a blanqueo\n8h6rt a terminado",
        "lavamos:\ntq 7f3k2\nla proxima semana:\n2c5p0 a blanqueo",
    ],
)
def test_a_lower_case_plan_heading_after_a_code_line_makes_its_lines_plans(note):
    run = run_note(note, "typed", "es")
    assert [c["payload"]["hat_code"] for c in run.saved] == ["TQ-7F3K2"]


# ---------------------------------------------------------------------------------------------------------
# Safe misses.
# ---------------------------------------------------------------------------------------------------------


def test_an_adverb_before_a_dictated_verb_is_no_part_of_the_name():
    run = run_note("la carmen quizhpi ya entrego tres finos de diecisiete", "voice", "es")
    assert batches(run) == [("w4", 3, "Fino", 17)]


@pytest.mark.parametrize(
    ("note", "choices"),
    [
        ("el 1p9 ya paso a lavado", ["TQ-1P9KD"]),
        ("TQ-1P9 moved to washing", ["TQ-1P9KD"]),
        ("tq 7f3 ya esta en lavado", ["TQ-7F3K2", "TQ-7F3KA"]),
    ],
)
def test_three_characters_of_a_code_ask_with_the_hats_that_fit(note, choices):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert cards(run) == [("advance_stage", "question", "check")]
    offered = [c["hat_code"] for c in run.saved[0]["payload"]["question"]["choices"]]
    assert sorted(offered) == choices


def test_a_size_is_no_fragment_of_a_code():
    run = run_note("el tq 7f3k2 paso a lavado, la funda es de 2x3", "voice", "es")
    assert [c["payload"]["hat_code"] for c in run.saved] == ["TQ-7F3K2"]


@pytest.mark.parametrize("name", ["carmela", "rosario"])
def test_a_first_name_two_edits_from_a_weavers_is_asked(name):
    run = run_note(f"la {name} trajo dos finos de diecinueve hileras", "voice", "es")
    assert cards(run) == [("create_hat", "question", "check")]
    assert run.saved[0]["payload"]["weaver_id"] is None


@pytest.mark.parametrize(
    "note",
    [
        "el 4k9d1 esta puesto como fino pero solo tiene doce hileras, hay que revisar eso",
        "TQ-4K9D1 is marked fino but has only 12 rows, someone should look at that",
    ],
)
def test_a_call_to_look_into_a_flag_is_an_aside_not_a_plan(note):
    run = run_note(note, "voice" if note.islower() else "typed", "es")
    assert [(c["type"], c["payload"]["kind"]) for c in run.saved] == [("flag_issue", "grade_mismatch")]


def test_a_due_move_is_still_a_plan():
    assert run_note("hay que lavar el 7f3k2", "voice", "es").saved == []


@pytest.mark.parametrize(
    "note",
    [
        "Desk log Tue: Manuel Delgado delivered 1 superfino of 26 rows.",
        "Notas del lunes: Manuel Delgado entregó 1 superfino de 26 hileras.",
    ],
)
def test_a_logs_label_names_no_weaver(note):
    assert batches(run_note(note, "typed", "es")) == [("w3", 1, "Superfino", 26)]


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("Carmen Quizhpi trajo 2 finos 16", ("create_hat", "pending", 2, 16)),
        ("Manuel dropped off superfinos 28, count to follow", ("create_hat", "question", None, 28)),
    ],
)
def test_a_number_right_after_a_grade_is_rows(note, expected):
    run = run_note(note)
    payload = run.saved[0]["payload"]
    assert (
        run.saved[0]["type"],
        run.saved[0]["status"],
        payload["quantity"],
        payload["rows_per_inch"],
    ) == expected
