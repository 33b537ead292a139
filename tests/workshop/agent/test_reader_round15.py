"""Round 15's misses, by class, each in words of our own, Spanish and English (evals/README.md, round 15;
docs/workshop-agent.md, "The three rules" and "The vocabulary underneath")."""

from __future__ import annotations

import pytest

from .test_reader_round10 import run_note
from .test_reader_round12 import moves
from .test_reader_round13 import creates

# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: the hedges of a formal report ("appears to", "seems to", "looks like", "likely",
# "presumably", "I could not confirm it") lower their event; a sentence that is only such a doubt lowers the
# event said just before it. The other events keep their own confidence.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-4K9D1 seems to have gone to blocking. TQ-8H6RT was moved to finished.", "en"),
        ("It looks like TQ-4K9D1 moved to blocking. TQ-8H6RT was moved to finished.", "en"),
        ("TQ-4K9D1 was most likely moved to blocking, and TQ-8H6RT was moved to finished.", "en"),
        ("TQ-4K9D1 was presumably pressed. TQ-8H6RT was moved to finished.", "en"),
        ("TQ-4K9D1 moved to blocking; we could not verify it. TQ-8H6RT was moved to finished.", "en"),
        ("El TQ-4K9D1 pasó a hormado, no pude confirmarlo. El TQ-8H6RT pasó a terminado.", "es"),
    ],
)
def test_a_formal_hedge_lowers_its_own_move_only(note, language):
    run = run_note(note, "typed", language)
    assert sorted(moves(run)) == [("TQ-4K9D1", "Blocking", "check"), ("TQ-8H6RT", "Finished", "high")]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: a title's dot ("Ms.", "Mr.", "Mrs.") ends no sentence, so "According to Mr. Delgado, …"
# and "Ms. Quizhpi told me that …" keep the report with the event it passes on.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "According to Mrs. Guamán, TQ-9M2XA went to bleaching.",
        "Mr. Delgado told me that TQ-9M2XA went to bleaching.",
        "Según la Sra. Pillco, el TQ-9M2XA pasó a blanqueo.",
    ],
)
def test_a_report_through_a_titled_person_is_checked(note):
    run = run_note(note, "typed", "en")
    assert moves(run) == [("TQ-9M2XA", "Bleaching", "check")]


# ---------------------------------------------------------------------------------------------------------
# Confidently wrong: what is due or scheduled ("is to be moved", "is due to go", "is scheduled for", "later
# this week", "está programado para") is no move.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("TQ-2C5P0 is due to go to bleaching. TQ-8H6RT moved to finished.", "en"),
        ("TQ-2C5P0 is scheduled for bleaching on Thursday. TQ-8H6RT moved to finished.", "en"),
        ("TQ-2C5P0 is to be bleached later this week. TQ-8H6RT moved to finished.", "en"),
        ("El TQ-2C5P0 está programado para blanqueo. El TQ-8H6RT pasó a terminado.", "es"),
    ],
)
def test_what_is_scheduled_makes_no_card(note, language):
    run = run_note(note, "typed", language)
    assert moves(run) == [("TQ-8H6RT", "Finished", "high")]


# ---------------------------------------------------------------------------------------------------------
# A stage after a dash on a code's line ("TQ-9M2XA - Blanqueo") is a label like the colon form: a move at
# check, and no card for a hat the label puts where it already is.
# ---------------------------------------------------------------------------------------------------------


def test_a_status_list_with_dashes_moves_only_the_hats_that_changed():
    run = run_note("Revisión de la tarde:\nTQ-9M2XA - Blanqueo\nTQ-4K9D1 – Blanqueo", "typed", "es")
    assert moves(run) == [("TQ-9M2XA", "Bleaching", "check")]
    assert "TQ-4K9D1 ya está en Blanqueo" in run.response["summary"]


def test_a_finished_hat_labelled_finished_is_no_blocked_card():
    run = run_note("Checked:\nTQ-5B7NW - Finished\nTQ-8H6RT - Finished", "typed", "en")
    assert moves(run) == [("TQ-8H6RT", "Finished", "check")]
    assert "TQ-5B7NW is already at Finished" in run.response["summary"]


# ---------------------------------------------------------------------------------------------------------
# A further batch after ";" takes the delivery verb also when more of the same stand between ("…y otros 2
# iguales; la Carmen un par de finos de 15").
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language", "expected"),
    [
        ("Manuel Delgado entregó 2 superfinos de 26 hileras y otro igual; la Rosa Pillco 3 finos de 17", "es",
         [("w3", 3, "Superfino", 26, "check"), ("w1", 3, "Fino", 17, "high")]),
        ("Rosa Guamán brought in 4 standard of 12 rows and another 2 like those; Carmen Quizhpi a pair of finos of"
         " 16", "en", [("w2", 6, "Standard", 12, "check"), ("w4", 2, "Fino", 16, "high")]),
    ],
)  # fmt: skip
def test_a_batch_after_more_of_the_same_keeps_the_delivery_verb(note, language, expected):
    assert creates(run_note(note, "typed", language)) == expected


# ---------------------------------------------------------------------------------------------------------
# A person named by kin ("mi mami", "my mom", "su hermana") is nobody's name: the delivery is asked, with no
# weaver looked up, beside the other events of the note; a name said after the kin word is the weaver.
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "language"),
    [
        ("Mi abuelita trajo 2 finos de 16 y el TQ-9M2XA pasó a blanqueo", "es"),
        ("My sister delivered 2 finos of 16 rows and TQ-9M2XA moved to bleaching", "en"),
    ],
)
def test_a_delivery_by_kin_is_asked_beside_the_move(note, language):
    run = run_note(note, "typed", language)
    questions = [c for c in run.saved if c["type"] == "create_hat"]
    assert [(c["status"], c["payload"]["quantity"], c["payload"]["rows_per_inch"]) for c in questions] == [
        ("question", 2, 16)
    ]
    assert questions[0]["payload"]["question"]["choices"] == []
    assert moves(run) == [("TQ-9M2XA", "Bleaching", "high")]
    assert "find_weaver" not in run.tools_called


def test_a_name_after_the_kin_word_is_the_weaver():
    run = run_note("mi tía Carmen Quizhpi entregó 2 finos de 16", "typed", "es")
    assert creates(run) == [("w4", 2, "Fino", 16, "high")]
