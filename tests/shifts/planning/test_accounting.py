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
        # A Spanish yes/no is asked by its tone: said in English question order since round 9
        # (planning/reading.SPANISH), so it is a yes/no with or without its question mark.
        ("¿el segundo turno está abajo del objetivo?", "was second shift below target?"),
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


def test_a_storys_words_before_its_asking_clause_are_context():
    story = (
        "ok so the plant mgr was on my back all morning bc a big load shipped late and the guys said the line "
        "kept stopping, idk, anyway just give me downtime by place for 2nd shift yday"
    )
    assert account(story).not_understood == ()
    # A word not understood inside the asking clause is still named.
    assert account(story + " by flurb").not_understood == ("flurb",)
    # A thing the records do not hold is named wherever the story says it.
    assert (
        "steam"
        in account(
            "the steam was low all night and we kept stopping, so just show me downtime by place"
        ).not_in_records
    )


def test_handling_damage_and_spanish_humidity_are_not_in_the_records():
    assert account("how much scrap from forklift damage this week").not_in_records == ("forklift damage",)
    assert account("¿estuvo alta la humedad en el turno 3?").not_in_records == ("humidity",)


def test_a_yes_no_whose_headline_states_no_verdict_is_not_led():
    from datetime import date

    from shopfloor.shifts.planning.accounting import YES_NO_UNLED, figures_not_led, yes_no_asked
    from shopfloor.shifts.planning.plans import Plan

    review = Plan(measure="review", day=date(2026, 11, 18), shift=2)
    head = "Maintenance downtime was **2.75 %** of scheduled minutes against its 2.5 % band (query 1)."
    assert figures_not_led("was maint dt over the band on 2nd yday", review, head) == [YES_NO_UNLED]
    assert figures_not_led("any setups over the trim flag on 1st shift? yes or no", review, head) == [
        YES_NO_UNLED
    ]
    assert figures_not_led("was maint dt over the band on 2nd yday", review, "Yes: " + head) == []
    # A choice, a trend's direction and a named reason's own stops answer without the word.
    assert not yes_no_asked("was it maintenance or operator downtime?")
    trend = Plan(measure="trend", day=date(2026, 11, 18), metric="downtime_pct")
    assert figures_not_led("is the splicer getting worse?", trend, "Downtime rose **0.4** points") == []
    outage = Plan(measure="pareto", day=date(2026, 1, 7), window="month", reason="Power outage")
    assert (
        figures_not_led("were there any power outages last month", outage, "Power outage: **96.0 min**") == []
    )
    assert YES_NO_UNLED.startswith("the verdict asked") and "yes" not in YES_NO_UNLED.lower()
