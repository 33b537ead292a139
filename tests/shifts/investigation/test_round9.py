"""The reader's round-9 classes (evals/shifts/blind-r9.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py), every expected figure worked out here with SQL of its own: a grade named
beside a crew's speed over a window is named as not applied; a count of shifts past a band or target leads
with the figure held to it and names the count as not applied; a place family's share leads with its member
that lost the most; a reason asked by place keeps its stops in the rows by place; two named months or weeks
are compared; Spanish targets, money, splices and widths are read; weights and other units the records do not
measure in are named as not in the records (docs/shifts-agent.md, "The three rules" and "Reading").

The store holds week A (2026-09-14..18): crew A on shift 1 (26-C), crew B on shift 2 (275-BC, then 200-C),
crew C on shift 3 (32-C); a knife jam at the upper knife on shifts 1 and 2 and a missed splice at Splicer 1
on shift 1 each day.
"""

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import account
from shopfloor.shifts.planning.dates import named_months
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.router import route

from .test_window_comparisons import ask, headline  # the same store, day and invariants

DAY = date(2026, 9, 16)
ALL = Scope(day=DAY)
WEEK = (date(2026, 9, 14), date(2026, 9, 18))


def caveats(answer):
    return " ".join(s["text"] for s in answer["sections"] if s["type"] == "caveat")


def _routed(question, scope=ALL):
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def _one(conn, sql, *params):
    return conn.execute(sql, params).fetchone()[0]


# --- a grade beside a crew's speed over a window ---------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["how fast was crew B on 275-BC this week", "crew B fpm on 200-C this wk"]
)
def test_a_grade_beside_a_crews_speed_over_a_window_is_named_as_not_applied(conn, question):
    # Crew B's own speed to target over the week, every grade it ran: its feet over its target feet.
    crew_b = _one(
        conn,
        "SELECT 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) FROM setups "
        "WHERE crew = 'B' AND day BETWEEN ? AND ?",
        *WEEK,
    )
    answer = ask(conn, question)
    assert headline(answer).startswith(f"Crew B ran at **{crew_b:.2f} %**")
    assert answer["status"] == "partial"
    assert "Not applied: grade " in caveats(answer)
    assert "over every grade it ran" in caveats(answer)


def test_a_crews_speed_over_a_window_alone_is_still_complete(conn):
    answer = ask(conn, "how fast was crew B this week")
    assert "Not applied" not in caveats(answer)


# --- a count of shifts past a band or target ----------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "count the shifts over the operator band this week",
        "how many shifts this week went past the operator band",
        "cuántos turnos rebasaron la banda de operador esta semana",
    ],
)
def test_a_count_of_shifts_over_a_band_leads_with_the_tile_and_names_the_count(conn, question):
    plan = _routed(question)
    assert (plan.measure, plan.metric, plan.ask) == ("kpis", "operator_pct", None)
    operator = _one(
        conn, "SELECT sum(minutes) FROM stops WHERE kind = 'Operator' AND day BETWEEN ? AND ?", *WEEK
    )
    scheduled = _one(conn, "SELECT sum(scheduled_min) FROM shifts WHERE day BETWEEN ? AND ?", *WEEK)
    answer = ask(conn, question)
    assert headline(answer).startswith(
        f"Operator downtime was **{100 * operator / scheduled:.2f} %** of scheduled minutes against its 2.5 % band"
    )
    assert answer["status"] == "partial"
    assert "the count of shifts asked" in caveats(answer)


def test_a_count_of_shifts_under_target_leads_with_the_speed_to_target_and_names_the_count(conn):
    plan = _routed("number of shifts below target this week")
    assert (plan.measure, plan.ask) == ("fpm", None)
    answer = ask(conn, "number of shifts below target this week")
    assert answer["status"] == "partial"
    assert "the count of shifts asked" in caveats(answer)


def test_a_band_held_to_without_a_count_is_still_its_yes_or_no():
    assert _routed("was operator downtime over the band this week").ask == "over_band"


# --- a place family's share ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what share of the downtime came from the splicers 1st shift",
        "porcentaje del tiempo muerto de las empalmadoras en el primer turno",
    ],
)
def test_a_place_familys_share_leads_with_its_member_that_lost_the_most(conn, question):
    plan = _routed(question)
    assert (plan.place, plan.ask, plan.shift) == ("Splicers", "share", 1)
    splicer, total = conn.execute(
        "SELECT sum(minutes) FILTER (WHERE place LIKE 'Splicer %'), sum(minutes) FROM stops "
        "WHERE day = ? AND shift = 1",
        (DAY,),
    ).fetchone()
    answer = ask(conn, question)
    assert headline(answer).startswith(
        f"Splicers: Splicer 1 lost the most, **{100 * splicer / total:.2f} %** of the recorded downtime"
    )
    assert answer["status"] == "partial"
    assert "Splicers as one total" in caveats(answer)


def test_a_place_familys_share_with_no_stop_is_none_of_it(conn):
    answer = ask(
        conn, "what percent of the downtime was the splicers", Scope(day=DAY, shift=3, include="shift")
    )
    assert headline(answer).startswith(
        "Splicers: no stop recorded at any of them, none of the recorded downtime (0 %)"
    )


def test_a_splicers_number_is_never_a_shifts_ordinal():
    assert _routed("splicer 3 downtime today").place == "Splicer 3"
    assert _routed("downtime at the splicers 3rd shift").place == "Splicers"


# --- a reason asked by place --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "knife jams by location this week",
        "where did we get knife jams this week",
        "atascos de cuchilla por equipo esta semana",
    ],
)
def test_a_reason_asked_by_place_is_its_stops_in_the_rows_by_place(conn, question):
    plan = _routed(question)
    assert (plan.measure, plan.by, plan.reason, plan.place) == ("pareto", "place", "Knife jam", None)
    minutes, stops, top = conn.execute(
        "SELECT sum(minutes), count(*), mode(place) FROM stops WHERE reason = 'Knife jam' AND day BETWEEN ? AND ?",
        WEEK,
    ).fetchone()
    answer = ask(conn, question)
    assert headline(answer).startswith(
        f"Knife jam by place: **{minutes:.1f} min** over {stops} stops, the most at {top}"
    )


def test_a_reason_beside_a_machine_word_that_asks_no_place_stays_by_reason():
    assert _routed("what machine adjustment would stop the knife jams").by == "reason"


# --- two named months or weeks compared ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "anchor", "other"),
    [
        ("jul vs aug speed", date(2026, 7, 1), date(2026, 8, 1)),
        ("downtime mar and may", date(2026, 3, 1), date(2026, 5, 1)),
        ("compara julio con agosto", date(2026, 7, 1), date(2026, 8, 1)),
        ("speed wk of sept 7 vs wk of sept 14", date(2026, 9, 7), date(2026, 9, 14)),
    ],
)
def test_two_named_months_or_weeks_are_compared(question, anchor, other):
    plan = _routed(question)
    assert (plan.measure, plan.anchor, plan.other_anchor) == ("compare", anchor, other)


def test_may_and_mar_alone_stay_words():
    assert named_months("we may see it", DAY) == []
    assert named_months("a mar on the liner", DAY) == []
    assert named_months("feb to mar", DAY) == [date(2026, 2, 1), date(2026, 3, 1)]


# --- Spanish: below target, money, splices, widths ------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "el tercer turno estuvo por debajo del objetivo esta semana",
        "¿el tercer turno quedó abajo de la meta esta semana?",
    ],
)
def test_a_spanish_question_below_target_is_answered_yes_or_no(conn, question):
    plan = _routed(question)
    assert (plan.measure, plan.shift, plan.ask) == ("fpm", 3, "below_target")
    speed = _one(
        conn,
        "SELECT 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) FROM setups "
        "WHERE shift = 3 AND day BETWEEN ? AND ?",
        *WEEK,
    )
    answer = ask(conn, question)
    assert headline(answer).startswith("Yes: " if speed < 100 else "No: ")
    assert f"**{speed:.2f} %**" in headline(answer)


def test_above_target_in_spanish_is_a_yes_or_no_too():
    assert _routed("el primer turno estuvo arriba de la meta ayer").ask == "at_target"


def test_spanish_money_for_missed_splices_is_their_cost():
    plan = _routed("¿cuánto dinero nos costaron los empalmes fallidos esta semana?")
    assert (plan.measure, plan.reason) == ("named_cost", "Missed splice")
    assert _routed("empalmes perdidos en la empalmadora 2 hoy").place == "Splicer 2"


@pytest.mark.parametrize(
    "question", ["merma en el ancho de 98 pulgadas esta semana", "desperdicio en 98 pulg esta semana"]
)
def test_a_width_said_in_spanish_is_applied_to_the_waste(conn, question):
    plan = _routed(question)
    assert (plan.measure, plan.width) == ("waste", 98)
    assert "98 in web" in ask(conn, question)["read_as"]


# --- units the records do not measure in ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "how many pounds of liner did we run this week",
        "tonnage on 2nd shift",
        "toneladas de papel esta semana",
        "gallons of glue used today",
    ],
)
def test_weights_and_liquid_volumes_are_not_in_the_records(question):
    lines = account(question).lines()
    assert any(line.startswith("Not in the records") for line in lines), lines


def test_the_records_own_units_are_not_named_missing():
    for question in ("msf this week", "lineal feet on 2nd", "sq ft of good board today"):
        assert not any(line.startswith("Not in the records") for line in account(question).lines()), question
