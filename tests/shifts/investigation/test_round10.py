"""The reader's round-10 classes (evals/shifts/blind-r10.yaml), in our own words, English and Spanish,
against the hand-built store (conftest.py), every expected figure worked out here with SQL of its own: a named
reason's share is of the whole recorded downtime, none of its minutes when the reason has no stop; a follow-up
said in other words ("do the same for", "same question, but", "set that beside", "can I see that") changes
the previous plan; a band's yes/no asked after a leading clause, or by its tone in Spanish, is answered Yes or
No (docs/shifts-agent.md, "The three rules" and "Reading").

The store holds week A (2026-09-14..18): a knife jam at the upper knife on shifts 1 and 2 and a missed splice
at Splicer 1 on shift 1 each day; shift 2 has scheduled maintenance beside its knife jam, and shift 3 one
power outage.
"""

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.router import route

from .test_window_comparisons import ask, headline  # the same store, day and invariants

DAY = date(2026, 9, 16)
ALL = Scope(day=DAY)
SECOND = Scope(day=DAY, shift=2, include="shift")


def _routed(question, scope=ALL, previous=None):
    plan = route(question, scope, previous)
    assert isinstance(plan, Plan), plan
    return plan


def _one(conn, sql, *params):
    return conn.execute(sql, params).fetchone()[0]


# --- a named reason's share is of the whole recorded downtime --------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what share of 2nd shift's downtime came from missed splices",
        "qué porcentaje del tiempo muerto del segundo turno fueron empalmes fallidos",
    ],
)
def test_a_reason_with_no_stop_is_none_of_the_minutes_recorded(conn, question):
    plan = _routed(question, SECOND)
    assert (plan.reason, plan.ask, plan.shift) == ("Missed splice", "share", 2)
    minutes, stops = conn.execute(
        "SELECT sum(minutes), count(*) FROM stops WHERE day = ? AND shift = 2", (DAY,)
    ).fetchone()
    answer = ask(conn, question, SECOND)
    assert headline(answer).startswith(
        "Missed splice was none of the recorded downtime here (0 %): no stop of it among the "
        f"**{minutes:.1f} min** recorded over {stops} stops"
    )
    assert answer["status"] == "complete"


def test_a_reason_with_stops_keeps_its_share_of_the_whole(conn):
    jam, total = conn.execute(
        "SELECT sum(minutes) FILTER (WHERE reason = 'Knife jam'), sum(minutes) FROM stops "
        "WHERE day = ? AND shift = 2",
        (DAY,),
    ).fetchone()
    answer = ask(conn, "what fraction of the downtime was knife jams", SECOND)
    assert headline(answer).startswith(
        f"Knife jam was **{100 * jam / total:.2f} %** of the recorded downtime"
    )


# --- a follow-up said in other words ---------------------------------------------------------------------------


SHARE_BEFORE = "/a?day=2026-09-16&shift=1&measure=downtime&reason=Knife%20jam&ask=share"


@pytest.mark.parametrize(
    "question", ["now do the same for missed splices", "ok, run the same for missed splices"]
)
def test_the_same_asked_of_another_reason_keeps_the_share(conn, question):
    plan = _routed(question, Scope(day=DAY, shift=1, include="shift"), parse_address(SHARE_BEFORE))
    assert (plan.reason, plan.ask) == ("Missed splice", "share")
    splice, total = conn.execute(
        "SELECT sum(minutes) FILTER (WHERE reason = 'Missed splice'), sum(minutes) FROM stops "
        "WHERE day = ? AND shift = 1",
        (DAY,),
    ).fetchone()
    answer = investigate(
        question, Scope(day=DAY, shift=1, include="shift"), conn, after=SHARE_BEFORE
    ).as_dict()
    assert headline(answer).startswith(
        f"Missed splice was **{100 * splice / total:.2f} %** of the recorded downtime"
    )


def test_same_question_for_another_crew_leads_with_that_crews_row(conn):
    before = "/a?window=week&anchor=2026-09-16&measure=compare_groups&by=crew&crew=A"
    plan = _routed("same question, but crew B", previous=parse_address(before))
    assert (plan.measure, plan.crew) == ("compare_groups", "B")
    crew_b = _one(
        conn,
        "SELECT 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) FROM setups "
        "WHERE crew = 'B' AND day BETWEEN ? AND ?",
        date(2026, 9, 14),
        date(2026, 9, 18),
    )
    answer = investigate("same question, but crew B", ALL, conn, after=before).as_dict()
    assert headline(answer).startswith(f"Crew B ran at **{crew_b:.2f} %**")
    assert "Not understood" not in str(answer["sections"])


@pytest.mark.parametrize(
    "question",
    ["set that beside first shift", "put it next to 1st shift please", "line this up against shift 1"],
)
def test_that_set_beside_another_shift_is_a_comparison(question):
    previous = parse_address("/a?day=2026-09-16&shift=2&measure=overview")
    plan = _routed(question, SECOND, previous)
    assert (plan.measure, plan.shift, plan.other_shift, plan.include) == ("compare_shifts", 2, 1, "day")


@pytest.mark.parametrize("question", ["can I see that as a graph", "could we get it as a plot"])
def test_can_i_see_that_as_a_chart_draws_it(question):
    previous = parse_address("/a?day=2026-09-16&shift=2&measure=fpm&by=grade")
    plan = _routed(question, SECOND, previous)
    assert (plan.measure, plan.by, plan.chart) == ("fpm", "grade", True)


# --- a band's yes/no after a leading clause, or by its tone in Spanish ------------------------------------------


@pytest.mark.parametrize(
    ("question", "ask_"),
    [
        ("on 1st shift today, was maintenance downtime over the band", "over_band"),
        ("for shift 1, did we stay within the maintenance band", "within_band"),
        ("¿el mantenimiento del primer turno pasó la banda hoy?", "over_band"),
        ("¿el primer turno quedó dentro de la banda de mantenimiento?", "within_band"),
    ],
)
def test_a_bands_yes_or_no_is_answered_yes_or_no(conn, question, ask_):
    assert_first_shifts_maintenance_verdict(conn, question, ask_)


def assert_first_shifts_maintenance_verdict(conn, question, ask_):
    """``question`` is read as first shift's maintenance band yes/no (``ask_``) and answered with the verdict
    and the share worked out here in SQL."""
    plan = _routed(question)
    assert (plan.measure, plan.metric, plan.shift, plan.ask) == ("kpis", "maintenance_pct", 1, ask_)
    maintenance = _one(
        conn, "SELECT sum(minutes) FROM stops WHERE kind = 'Maintenance' AND day = ? AND shift = 1", DAY
    )
    scheduled = _one(conn, "SELECT scheduled_min FROM shifts WHERE day = ? AND shift = 1", DAY)
    pct = 100 * maintenance / scheduled
    answer = ask(conn, question)
    yes = (pct > 2.5) == (ask_ == "over_band")
    assert headline(answer).startswith(
        f"{'Yes' if yes else 'No'}: Maintenance downtime was **{pct:.2f} %** of scheduled minutes"
    )
    assert answer["status"] == "complete"


def test_a_comma_before_a_question_word_asks_no_verdict():
    assert _routed("on 1st shift today, what was maintenance downtime against the band").ask is None


def test_a_spanish_question_word_before_the_band_asks_no_verdict():
    assert _routed("¿cuánto fue el mantenimiento del primer turno contra la banda?").ask is None


# --- the bottom or top shifts of a window; a ratio per paper change ----------------------------------------------


@pytest.mark.parametrize("question", ["bottom 2 shifts this week on speed", "top two shifts this wk"])
def test_the_bottom_or_top_shifts_of_a_window_are_the_shifts_ranked(conn, question):
    plan = _routed(question)
    assert (plan.measure, plan.by) == ("compare_groups", "shift")
    answer = ask(conn, question)
    assert answer["status"] == "partial"
    assert "Not applied: the " in " ".join(s["text"] for s in answer["sections"] if s["type"] == "caveat")


@pytest.mark.parametrize(
    "question", ["footage per paper change on 1st shift", "lineal feet per setup on first shift"]
)
def test_a_ratio_per_paper_change_or_setup_is_named_as_not_applied(conn, question):
    answer = ask(conn, question, Scope(day=DAY, shift=1, include="shift"))
    caveats = " ".join(s["text"] for s in answer["sections"] if s["type"] == "caveat")
    assert answer["status"] == "partial"
    assert "Not applied: the figure per " in caveats


# --- a story's closing yes/no ----------------------------------------------------------------------------------


def test_a_storys_closing_yes_or_no_is_the_question_read():
    question = (
        "long night, the forklift was down twice and the boss never stopped calling. "
        "was 3rd shift under target or not?"
    )
    plan = _routed(question)
    assert (plan.measure, plan.shift, plan.ask) == ("fpm", 3, "below_target")


# --- two weeks named by how far back they are -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "anchor", "other"),
    [
        ("How did downtime last week compare with the week before last?", "2026-09-07", "2026-08-31"),
        ("downtime this week vs two weeks ago", "2026-09-14", "2026-08-31"),
        ("the week before last against last week, downtime", "2026-09-07", "2026-08-31"),
    ],
)
def test_two_weeks_named_by_how_far_back_are_both_compared(question, anchor, other):
    # DAY is Wednesday 2026-09-16: its week starts on Monday the 14th, last week on the 7th, the week
    # before last on 2026-08-31.
    plan = _routed(question)
    assert (plan.measure, plan.window) == ("compare", "week")
    assert (str(plan.anchor), str(plan.other_anchor)) == (anchor, other)


def test_the_week_before_last_alone_is_one_week():
    plan = _routed("downtime the week before last")
    assert (plan.window, str(plan.anchor), plan.other_anchor) == ("week", "2026-08-31", None)


def test_the_week_before_last_in_spanish():
    plan = _routed("el tiempo muerto de la semana pasada comparado con la semana antepasada")
    assert (plan.measure, str(plan.anchor), str(plan.other_anchor)) == ("compare", "2026-09-07", "2026-08-31")
    plan = _routed("paros de hace dos semanas")
    assert (plan.window, str(plan.anchor)) == ("week", "2026-08-31")
