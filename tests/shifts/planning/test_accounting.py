"""Every word of a question accounted for: read, filler, not in the records, or not understood."""

import pytest

from shopfloor.shifts.planning.accounting import account
from shopfloor.shifts.planning.reading import canonical


@pytest.mark.parametrize(
    "question",
    [
        "downtime by reason for second shift",
        "how many times did the upper knife jam on 2nd shift",
        "what percent of downtime was knife jams",
        "show me the fpm by grade yesterday please",
        "rank the shifts on speed",
        "compare August and September speed",
    ],
)
def test_questions_in_the_vocabulary_leave_nothing(question):
    assert account(question).lines() == []


def test_things_the_records_do_not_hold_are_named_with_what_they_hold():
    accounting = account("was steam pressure low on 2nd shift")
    # Named as the question says it, neighbouring words joined.
    assert accounting.not_in_records == ("steam pressure",)
    line = accounting.lines()[0]
    assert line.startswith("Not in the records: steam pressure (the records hold speed")
    assert account("which customer had the most rejects").not_in_records == ("customer",)
    assert account("scrap from crushed flutes and the glue temp").not_in_records == ("crushed", "temp")


def test_unknown_and_unplaceable_words_are_not_understood():
    assert account("downtime on payday").not_understood == ("payday",)
    assert account("downtime by reason flibbertigibbet").lines() == ["Not understood: flibbertigibbet."]


@pytest.mark.parametrize(
    ("spanish", "english"),
    [
        ("¿por qué fue lento el segundo turno?", "why was slow second shift?"),
        ("¿el segundo turno está abajo del objetivo?", "second shift was below target?"),
        ("rechazos del turno tres por razon", "rejects shift 3 by reason"),
        ("paros por equipo esta semana", "downtime by place this week"),
        ("rechazos por razón del tercer turno", "rejects by reason third shift"),
        ("velocidad por grado del turno 1 ayer", "speed by grade shift 1 yesterday"),
    ],
)
def test_spanish_is_read_with_the_same_slots(spanish, english):
    assert canonical(spanish) == english
    assert account(spanish).lines() == []


def test_a_bridge_outside_the_speed_bridge_is_not_understood():
    from shopfloor.shifts.planning.accounting import account as words_of

    assert words_of("how much time we lose on the bridge yesterday").not_understood == ("bridge",)
    assert words_of("show the speed bridge").not_understood == ()


def test_who_ran_a_machine_asks_for_a_name_the_records_do_not_hold():
    assert account("who was running the upper knife when it jammed on 2nd shift").not_in_records == (
        "who was running",
    )
    assert account("who ran the corrugator on 3rd").not_in_records == ("who ran",)
    # "Who" asking which shift or crew is no person's name.
    assert account("which crew had the most downtime").not_in_records == ()
