"""The reader's round-17 classes (evals/shifts/blind-r17.yaml), in our own words, English and Spanish, against
the hand-built store (conftest.py): a reading said as its verb ("vibrating") and a person asked by trade or by
"quién fue" are not in the records; a kind beside rows by place or reason filters a window's pareto, and a kind
no result applies is named; the wet end is a place beside a stop reason; "which shift had the least downtime"
ranks the shifts; a time of day is named in the question's own words; "which grade had the worst trim" asks
the rows by grade; a target reached said by its Spanish verb is the yes/no on target; "how much board did we
run" is the volume (docs/shifts-agent.md, "The three rules", "Reading", "Comparisons over a window", "Known
limits").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21; crew A runs shift 1, crew
B shift 2 and crew C shift 3 every day.
"""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import account, more_values
from shopfloor.shifts.planning.reading import canonical, entities
from tests.shifts.investigation.reading_helpers import ask
from tests.shifts.investigation.reading_helpers import routed as _routed
from tests.shifts.investigation.reading_helpers import text as _text
from tests.shifts.investigation.reading_helpers import tools as _tools

MONDAY = date(2026, 9, 21)
FRIDAY = date(2026, 9, 18)


# --- a reading said as its verb, and a person asked by trade: not in the records ---------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("was the upper knife vibrating on second shift", "vibrating"),
        ("did the glue dams start shaking on 3rd", "shaking"),
        ("downtime at the upper knife on second shift", None),  # a place's stops, no reading asked
        ("is the double backer overheating today", "overheating"),
        ("did the splicer get noisy yesterday", "noisy"),
        ("¿la cuchilla de arriba estaba vibrando ayer?", "vibrando"),
    ],
)
def test_a_reading_said_as_its_verb_is_not_in_the_records(question: str, said: str | None) -> None:
    found = account(question).not_in_records
    assert (said in found) if said else not found, found


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("who repaired the lower knife on friday", "who repaired"),
        ("which mechanic worked on the knife jam", "mechanic"),
        ("¿quién estuvo en la empalmadora 2 el viernes?", "quién"),
        ("¿quién fue el electricista del tercer turno?", "quién"),
        ("¿quién fue el mecánico del paro de la cuchilla de abajo?", "mecánico"),
    ],
)
def test_a_person_asked_by_trade_or_by_quien_fue_is_not_in_the_records(question: str, said: str) -> None:
    assert said in account(question).not_in_records


def test_a_story_about_a_guy_who_called_in_names_no_person() -> None:
    question = (
        "rough night and a guy who called in sick, anyway what i need is downtime by reason for 2nd shift"
    )
    assert account(question).not_in_records == ()


def test_a_reading_asked_of_a_place_answers_its_stops_and_names_the_reading(
    conn: duckdb.DuckDBPyConnection,
) -> None:
    answer = ask(conn, "was the upper knife vibrating on 2nd shift", Scope(day=FRIDAY))
    assert answer["status"] == "partial"
    assert "Not in the records: vibrating" in _text(answer)
    assert "get_downtime_breakdown" in _tools(answer)


# --- a kind beside rows by place or reason over a window: the window's pareto filters it ---------------------


@pytest.mark.parametrize(
    ("question", "by", "kind"),
    [
        ("operator downtime by place last week", "place", "Operator"),
        ("maint dt by reason last wk", "reason", "Maintenance"),
        ("paros de mantenimiento por equipo la semana pasada", "place", "Maintenance"),
    ],
)
def test_a_kind_beside_a_grouping_over_a_window_is_a_filter(question: str, by: str, kind: str) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.window, plan.anchor) == ("pareto", "week", date(2026, 9, 14))
    assert (plan.by, plan.kind) == (by, kind)


def test_a_kind_alone_over_a_window_is_still_its_own_row() -> None:
    plan = _routed("operator downtime last week", Scope(day=MONDAY))
    assert (plan.by, plan.kind) == ("kind", "Operator")


def test_the_window_pareto_keeps_only_the_kind_asked(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A: the operator's stops are the missed splices at Splicer 1, 5 min a day; the upper knife's 30 min a
    # day are maintenance's and the plant's power outage is external (listed apart, as on a day).
    answer = ask(conn, "operator downtime by place last week", Scope(day=MONDAY))
    assert answer["status"] == "complete"
    assert "Operator only" in answer["read_as"]
    text = _text(answer)
    assert "The top place was Splicer 1 at **25.0 min**" in text
    assert "Upper knife" not in text


def test_a_kind_no_result_applies_is_named(conn: duckdb.DuckDBPyConnection) -> None:
    # A share of one kind's downtime is read among every stop: the kind is named, never claimed.
    answer = ask(conn, "what percent of maintenance downtime was knife jams last week", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert "Not applied: Maintenance only (this answer's rows hold every kind of stop" in _text(answer)


# --- the wet end is a place beside a stop reason or a kind, not only beside "downtime" ---------------------------


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("paper breaks at the wet end last week", True),
        ("any missed splices on the wet end yesterday", True),
        ("maintenance at the wet end this month", True),
        ("wet end speed on 2nd", False),  # the wet end's speed is a measure, no place of stops
    ],
)
def test_the_wet_end_is_a_place_beside_a_stop_reason_or_kind(question: str, named: bool) -> None:
    assert ("Wet end" in entities(canonical(question)).places) is named


def test_the_wet_end_said_in_a_story_is_read_or_named(conn: duckdb.DuckDBPyConnection) -> None:
    question = (
        "we are planning next week's work and the manager keeps going on about the wet end, "
        "so just show me the missed splices by place for last week"
    )
    answer = ask(conn, question, Scope(day=MONDAY))
    plan = answer["plan"]
    assert (plan["measure"], plan["by"], plan["reason"]) == ("pareto", "place", "Missed splice")
    shown = " ".join(s["text"] for s in answer["sections"] if s["type"] in ("read_as", "caveat"))
    assert "place Wet end" in shown


# --- which shift had the least: the shifts ranked, in any scope ------------------------------------------------


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("which shift had the least downtime last week", "downtime"),
        ("what shift had the fewest rejects last week", "quality"),
        ("which shift had the lowest speed last week", None),  # speed to target, the tool's default
    ],
)
def test_which_shift_had_the_least_compares_the_windows_shifts(question: str, metric: str | None) -> None:
    plan = _routed(question, Scope.parse(MONDAY.isoformat(), 2))
    assert (plan.measure, plan.by, plan.shift, plan.metric) == ("compare_groups", "shift", None, metric)
    assert (plan.window, plan.anchor) == ("week", date(2026, 9, 14))


def test_which_shift_had_the_least_on_a_day_ranks_that_days_shifts() -> None:
    plan = _routed("which shift had the least downtime yesterday", Scope.parse(MONDAY.isoformat(), 1))
    assert (plan.measure, plan.day, plan.shift, plan.include, plan.metric) == (
        "rankings",
        FRIDAY,
        None,
        "day",
        "downtime",
    )


def test_the_shift_with_the_least_downtime_leads(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A: shift 3's only stop is the external power outage, so its unplanned downtime is 0 of 2,400 minutes.
    answer = ask(conn, "which shift had the least downtime last week", Scope(day=MONDAY))
    assert answer["status"] == "complete"
    assert "get_group_comparison" in _tools(answer)
    assert "Shift 3 was the best shift of the window on unplanned downtime at **0.00 %**" in _text(answer)


# --- a time of day is named as the question says it, and its words are not "not understood" -------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("¿qué nos paró a las cuatro en el segundo turno?", "a las cuatro"),
        (
            "¿cuántos paros hubo entre las dos y las cinco de la tarde?",
            "entre las dos y las cinco de la tarde",
        ),
        ("¿qué paró antes de la comida en el primer turno?", "antes de la comida"),
        ("what stopped us at 4 oclock on 2nd", "at 4 oclock"),
    ],
)
def test_a_time_of_day_is_named_in_the_questions_own_words(question: str, said: str) -> None:
    plan = _routed(question, Scope(day=FRIDAY))
    found = account(question, plan)
    assert f"the time of day, {said} (this answer reads the whole shift or day" in " ".join(found.not_applied)
    assert found.not_understood == ()


def test_a_spanish_time_of_day_makes_the_answer_partial(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "¿qué nos paró a las cuatro en el segundo turno?", Scope(day=FRIDAY))
    assert answer["status"] == "partial"
    text = _text(answer)
    assert "Not applied: the time of day, a las cuatro" in text
    assert "Not understood" not in text
    assert "get_downtime_breakdown" in _tools(answer)


# --- which grade had the worst X: the rows by grade asked, named where the measure is not broken down by grade ---


@pytest.mark.parametrize(
    ("question", "by"),
    [
        ("which grade had the most trim last week", "grade"),
        ("what grades had the worst downtime last week", "grade"),
        ("which width had the most rejects last week", "width"),
    ],
)
def test_which_grade_had_the_worst_is_the_rows_by_grade_asked(question: str, by: str) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert plan.by != by
    missing, _also = more_values(question, plan)
    assert any(m.startswith(f"by {by} (this answer's tools do not break") for m in missing), missing


def test_which_grade_ran_slowest_is_read_by_grade() -> None:
    plan = _routed("which grade ran slowest last week", Scope(day=MONDAY))
    assert (plan.measure, plan.by) == ("fpm", "grade")
    assert more_values("which grade ran slowest last week", plan)[0] == []


def test_which_grade_had_the_most_trim_names_the_grouping(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "which grade had the most trim last week", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert "Not applied: by grade (this answer's tools do not break waste down by grade)" in _text(answer)


# --- a target reached said by its Spanish verb: the yes/no on target ------------------------------------------


@pytest.mark.parametrize(
    ("question", "shift", "crew"),
    [
        ("¿cumplimos la meta de velocidad la semana pasada?", None, None),
        ("¿el segundo turno llegó al objetivo la semana pasada?", 2, None),
        ("¿la cuadrilla B alcanzó la meta la semana pasada?", None, "B"),
        ("logramos la meta la semana pasada?", None, None),  # no opening mark typed
    ],
)
def test_a_target_reached_in_spanish_is_the_yes_no_on_target(
    question: str, shift: int | None, crew: str | None
) -> None:
    plan = _routed(question, Scope(day=MONDAY))
    assert (plan.measure, plan.ask, plan.window, plan.anchor) == (
        "fpm",
        "at_target",
        "week",
        date(2026, 9, 14),
    )
    assert (plan.shift, plan.crew) == (shift, crew)


def test_arriving_is_no_target_reached() -> None:
    assert "hit" not in canonical("¿a qué hora llegó a la planta el mecánico?")


def test_a_target_reached_in_spanish_is_answered_no_against_100(conn: duckdb.DuckDBPyConnection) -> None:
    # Week A: 954,000 ft run on 1,176,000 ft of target (900, 900, 500, 800 and 900 ft/min over their minutes).
    answer = ask(conn, "¿cumplimos la meta de velocidad la semana pasada?", Scope(day=MONDAY))
    assert answer["status"] == "complete"
    assert "No: Speed to target was **81.12 %** over Week of 2026-09-14 (Mon–Fri) against 100 %" in _text(
        answer
    )


# --- how much board did we run: the volume, whatever noun names what was made ---------------------------------


@pytest.mark.parametrize(
    ("question", "measure"),
    [
        ("how much board did we make last week", "volume"),
        ("how much paper did we run on friday", "volume"),
        ("how much good board did the line produce last week", "volume"),
        ("how much waste did we make last week", "waste"),  # a loss made is that loss
    ],
)
def test_how_much_board_did_we_run_is_the_volume(question: str, measure: str) -> None:
    assert _routed(question, Scope(day=MONDAY)).measure == measure


def test_board_on_a_web_the_records_do_not_hold_is_partial(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "how much board did we run on 90 inch paper last week", Scope(day=MONDAY))
    assert answer["status"] == "partial"
    assert (
        "Not applied: the 90 in web (no web of that width is in the records: the webs are 98, 95, 92, 87 in"
        in (_text(answer))
    )
