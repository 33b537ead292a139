"""Round 10's misses by class, each in words of our own, Spanish and English (evals/README.md, round 10;
docs/workshop-agent.md, "What the reader understands, by class"). The rounds before are in
test_reader_classes.py and test_reader_round9.py."""

from __future__ import annotations

import pytest

from shopfloor.workshop.agent.evals import CaseRun, fresh_eval_run
from shopfloor.workshop.agent.offline import OfflineReader


def run_note(
    note: str, input_mode: str = "typed", language: str = "en", hat_tag: str | None = None
) -> CaseRun:
    """One offline run of ``note`` on a fresh seeded database: the saved cards and the tools called."""
    case: dict[str, str] = {"note": note, "input_mode": input_mode}
    if hat_tag is not None:
        case["hat_tag"] = hat_tag
    with fresh_eval_run() as run_one:
        return run_one(case, OfflineReader(), language)


def batches(run: CaseRun) -> list[tuple[str, int, str, int]]:
    """Each saved create card as (weaver, quantity, grade, rows)."""
    return [
        (p["weaver_id"], p["quantity"], p["grade"], p["rows_per_inch"])
        for c in run.saved
        if c["type"] == "create_hat"
        for p in [c["payload"]]
    ]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong first: a total's parts said without a comma are still its parts.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode", "expected"),
    [
        (
            "carmen quizhpi trajo cinco finos dos de quince y tres de diecinueve",
            "voice",
            [("w4", 2, "Fino", 15), ("w4", 3, "Fino", 19)],
        ),
        (
            "Rosa Guamán entregó 3 estándar 2 de 12 y 1 de 10",
            "typed",
            [("w2", 2, "Standard", 12), ("w2", 1, "Standard", 10)],
        ),
        (
            "manuel delgado brought five superfinos two at twenty four rows and three at thirty two",
            "voice",
            [("w3", 2, "Superfino", 24), ("w3", 3, "Superfino", 32)],
        ),
        (
            "Carmen delivered five hats two at 16 three at 18",
            "typed",
            [("w4", 2, None, 16), ("w4", 3, None, 18)],
        ),
        (
            "la carmen trajo cinco finos dos de 16 hileras tres de 18",
            "voice",
            [("w4", 2, "Fino", 16), ("w4", 3, "Fino", 18)],
        ),
    ],
)
def test_a_totals_parts_said_without_a_comma_are_its_parts(note, mode, expected):
    run = run_note(note, input_mode=mode)
    got = [(w, q, g if expected[0][2] else None, r) for w, q, g, r in batches(run)]
    assert got == expected, note
    assert all(c["status"] != "question" for c in run.saved), note


@pytest.mark.parametrize(
    "note",
    [
        "Carmen trajo 4 finos de 18 hileras, 2 de ellos con manchas",
        "Manuel delivered 3 superfinos of 24 rows",
    ],
)
def test_a_count_that_is_no_part_stays_with_its_batch(note):
    run = run_note(note)
    (create,) = [c for c in run.saved if c["type"] == "create_hat"]
    assert create["payload"]["quantity"] in {3, 4}


# ---------------------------------------------------------------------------------------------------------
# "that last one", "ese último": the last hat named, and only it, found by reference (`check`).
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "mode", "code", "stage"),
    [
        ("tq 7f3k2 and tq 1p9kd, that last one went to washing", "voice", "TQ-1P9KD", "Washing"),
        ("TQ-7F3K2 and TQ-1P9KD, this last one moved to washing", "typed", "TQ-1P9KD", "Washing"),
        ("TQ-7F3K2 and TQ-1P9KD that last one moved to washing", "typed", "TQ-1P9KD", "Washing"),
        ("tq 4k9d1 y tq 2c5p0, ese último pasó a blanqueo", "voice", "TQ-2C5P0", "Bleaching"),
        ("el TQ-7F3K2 y el TQ-1P9KD, aquella última ya pasó a lavado", "typed", "TQ-1P9KD", "Washing"),
        ("el TQ-7F3K2 y el TQ-1P9KD, esa última pasó a lavado", "typed", "TQ-1P9KD", "Washing"),
    ],
)
def test_that_last_one_moves_only_the_last_hat_named(note, mode, code, stage):
    run = run_note(note, input_mode=mode)
    assert [(c["type"], c["payload"]["hat_code"], c["payload"]["to_stage"]) for c in run.saved] == [
        ("advance_stage", code, stage)
    ], note
    assert run.saved[0]["confidence"] == "check"


# ---------------------------------------------------------------------------------------------------------
# A stage said as a time ("while washing", "mientras lavaba", "al lavarlo") is no move.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "this one has a stain on the brim, we saw it during washing",
        "found a small hole in it while washing",
        "it has a tear near the crown, noticed it when washing",
        "tiene un huequito en la copa, lo vi mientras lavaba",
        "tiene una mancha en el ala, la encontramos al lavarlo",
        "tiene una mancha, se vio durante el lavado",
    ],
)
def test_a_stage_said_as_a_time_is_no_move(note):
    run = run_note(note, hat_tag="TQ-1P9KD")
    assert [(c["type"], c["payload"]["hat_code"]) for c in run.saved] == [("flag_issue", "TQ-1P9KD")], note
    assert "propose_advance_stage" not in run.tools_called


@pytest.mark.parametrize(
    ("note", "stage"),
    [("pasó al lavado", "Washing"), ("moved to washing", "Washing"), ("ya está en blanqueo", "Bleaching")],
)
def test_a_stage_after_al_or_to_is_still_a_move(note, stage):
    run = run_note(note, hat_tag="TQ-1P9KD")
    assert [(c["type"], c["payload"]["to_stage"]) for c in run.saved] == [("advance_stage", stage)]


# ---------------------------------------------------------------------------------------------------------
# Safe misses: a capitalised pronoun names nobody; "not 100% sure" is a hedge; too few rows said without a
# number is a grade mismatch.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "weaver"),
    [
        ("Me contó el Manuel que entregó 2 superfinos de 24 hileras.", "w3"),
        ("Nos dijo Carmen que ya trajo 3 finos de 16.", "w4"),
        ("Me avisó la Rosa Pillco que terminó 2 finos de 18.", "w1"),
    ],
)
def test_a_capitalised_pronoun_before_a_report_names_nobody(note, weaver):
    run = run_note(note, language="es")
    (card,) = run.saved
    assert (card["status"], card["confidence"], card["payload"]["weaver_id"]) == ("pending", "check", weaver)


@pytest.mark.parametrize(
    "note",
    [
        "Carmen delivered 3 finos of 16, not 100% sure",
        "Carmen delivered 3 finos of 16 rows I think, not totally sure",
        "Manuel trajo 2 superfinos de 24, no estoy 100% seguro",
        "la Carmen trajo 3 finos de 16, no estoy del todo segura",
        "TQ-7F3K2 pasó a lavado, no estoy cien por ciento seguro",
    ],
)
def test_not_fully_sure_is_a_hedge(note):
    run = run_note(note)
    assert run.saved, note
    assert all(c["status"] == "pending" and c["confidence"] == "check" for c in run.saved), note


@pytest.mark.parametrize(
    ("note", "words"),
    [
        ("el TQ-4K9D1 está marcado fino pero no le llegan las hileras", "no le llegan las hileras"),
        ("el tq 4k9d1 dice fino pero no alcanzan las hileras", "no alcanzan las hileras"),
        ("TQ-4K9D1 is labelled fine but the rows fall short", "the rows fall short"),
        ("TQ-4K9D1 says fino but it falls short on rows", "it falls short on rows"),
    ],
)
def test_too_few_rows_said_without_a_number_is_a_grade_mismatch(note, words):
    run = run_note(note)
    (flag,) = run.saved
    assert (flag["type"], flag["payload"]["hat_code"], flag["payload"]["kind"]) == (
        "flag_issue",
        "TQ-4K9D1",
        "grade_mismatch",
    )
    assert words in flag["payload"]["message"]
