"""The reader's round-11 classes (evals/shifts/blind-r11.yaml), in our own words, English and Spanish,
against the hand-built store (conftest.py), every expected figure worked out here with SQL of its own: a
forecast in any wording and an edit of a record are refused; a threshold on the speed target's yes/no other
than 100 %, a time of day, the year so far, and a grade or web width the records do not hold are named as not
applied; what we made or earned is a profit, partial, naming the revenue and margin the records do not hold; a
place named in the singular is that place; a limit word texted without its vowels ("ovr") and a yes/no texted
with only its question mark are read (docs/shifts-agent.md, "The three rules", "Reading" and "Known limits").

The store holds week A (2026-09-14..18): a knife jam at the upper knife on shifts 1 and 2 and a missed splice
at Splicer 1 on shift 1 each day; shift 2 has scheduled maintenance beside its knife jam, and shift 3 one
power outage. No stop is at the glue dams; the webs run are 98, 92, 87 and 95 in.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import duckdb
import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.answers.sayings import spoken
from shopfloor.shifts.evals import invariants
from shopfloor.shifts.investigation import investigate
from shopfloor.shifts.pages.i18n import translations
from shopfloor.shifts.planning.plans import Plan, Unavailable
from shopfloor.shifts.planning.refused import EDIT, FORECAST_REASON
from shopfloor.shifts.planning.router import route

from .test_round10 import assert_first_shifts_maintenance_verdict  # the same store and day

DAY = date(2026, 9, 16)
ALL = Scope(day=DAY)
FIRST = Scope(day=DAY, shift=1, include="shift")
SECOND = Scope(day=DAY, shift=2, include="shift")
WEEK = (date(2026, 9, 14), date(2026, 9, 18))


def ask(conn: duckdb.DuckDBPyConnection, question: str, scope: Scope = ALL) -> dict[str, Any]:
    answer: dict[str, Any] = investigate(question, scope, conn).as_dict()
    assert invariants(answer) == []
    return answer


def headline(answer: dict[str, Any]) -> str:
    return str(next(s["text"] for s in answer["sections"] if s["type"] == "headline"))


def _routed(question: str, scope: Scope = ALL) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


def _one(conn: duckdb.DuckDBPyConnection, sql: str, *params: Any) -> Any:
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def _caveats(answer: dict[str, Any]) -> str:
    return " ".join(s["text"] for s in answer["sections"] if s["type"] == "caveat")


def _text(answer: dict[str, Any]) -> str:
    return " ".join(s["text"] for s in answer["sections"])


# --- a forecast in any wording, an edit of a record ---------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "what will second shift's downtime be on friday",
        "will we hit target on 2nd",
        "is 1st shift going to be faster next monday",
        "¿cuál va a ser el tiempo muerto del segundo turno el viernes?",
        "¿cómo nos irá en el primer turno?",
        "¿vamos a llegar a la meta en el segundo turno?",
    ],
)
def test_a_forecast_in_any_wording_is_refused(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    refused = route(question, SECOND)
    assert isinstance(refused, Unavailable)
    assert refused.reason == FORECAST_REASON
    answer = ask(conn, question, SECOND)
    assert answer["status"] == "unavailable"
    assert "The records describe the past" in _text(answer)


@pytest.mark.parametrize(
    "question",
    [
        "fix stop D1-2, it was operator not maintenance",
        "recode the knife jam stop on 2nd from maintenance to operator",
        "please delete the power outage record on 3rd",
        "mark the upper knife stop as operator",
        "cambia el paro D2-1 de mantenimiento a operador",
        "corrige ese paro, fue de operador",
        "bórralo del registro por favor",
    ],
)
def test_an_edit_of_a_record_is_refused(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    refused = route(question, SECOND)
    assert isinstance(refused, Unavailable)
    assert refused.reason == EDIT
    answer = ask(conn, question, SECOND)
    assert answer["status"] == "unavailable"
    assert "only reads the records" in _text(answer)
    # Said from its template, so a Spanish page says it in Spanish.
    said = next(s for s in answer["sections"] if s["text"] == EDIT)
    assert spoken(said, translations("es"))["text"].startswith("El investigador solo lee los registros")


@pytest.mark.parametrize(
    "question",
    [
        "what adjustment will stop the knife jams",  # a prescription: the records shown, nothing recommended
        "did the number of stops change from last week to this week",
        "correct me if i'm wrong, was downtime high on 2nd",
        "did 2nd shift hit target",
    ],
)
def test_a_question_about_the_records_is_no_forecast_nor_edit(question: str) -> None:
    _routed(question, SECOND)


# --- a threshold on the speed target other than 100 % --------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "was 2nd shift around 90% of target?",
        "did second shift run at least 95 percent of target",
        "¿el segundo turno estuvo arriba del 90 % de la meta?",
    ],
)
def test_a_threshold_on_the_target_is_named_the_verdict_held_to_100(
    conn: duckdb.DuckDBPyConnection, question: str
) -> None:
    plan = _routed(question, SECOND)
    assert (plan.measure, plan.shift) == ("fpm", 2)
    assert plan.ask in ("at_target", "below_target")
    pct = _one(
        conn,
        "SELECT 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) FROM setups WHERE day = ? AND shift = 2",
        DAY,
    )
    answer = ask(conn, question, SECOND)
    yes = (pct < 100) == (plan.ask == "below_target")
    assert headline(answer).startswith(
        f"{'Yes' if yes else 'No'}: Shift 2 ran at **{pct:.2f} %** of grade target speed against 100 %"
    )
    assert answer["status"] == "partial"
    assert "Not applied: the threshold 9" in _caveats(answer)
    assert "(the verdict is held to the grade target, 100 %" in _caveats(answer)


def test_the_target_itself_is_no_threshold(conn: duckdb.DuckDBPyConnection) -> None:
    answer = ask(conn, "was 2nd shift at 100% of target?", SECOND)
    assert "threshold" not in _caveats(answer)


# --- a time of day -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("what stopped us around 10am on 1st shift", "around 10am"),
        ("downtime on first shift after lunch", "after lunch"),
        ("stops on 1st shift at 9:30", "at 9:30"),
        # Named as the question says it, not in the router's words (round 17; docs/shifts-agent.md, "Reading").
        ("¿qué nos paró a las diez en el primer turno?", "a las diez"),
    ],
)
def test_a_time_of_day_is_named_as_not_applied(
    conn: duckdb.DuckDBPyConnection, question: str, said: str
) -> None:
    plan = _routed(question, FIRST)
    assert (plan.measure, plan.shift) == ("downtime", 1)
    minutes, stops = conn.execute(
        "SELECT sum(minutes), count(*) FROM stops WHERE day = ? AND shift = 1 AND reason = 'Knife jam'",
        (DAY,),
    ).fetchone() or (None, None)
    answer = ask(conn, question, FIRST)
    assert headline(answer).startswith(
        f"The largest downtime was Knife jam at **{minutes:.1f} min** over {stops} stop"
    )
    assert answer["status"] == "partial"
    assert f"Not applied: the time of day, {said} (this answer reads the whole shift or day" in _caveats(
        answer
    )


def test_a_time_in_the_story_is_context() -> None:
    from shopfloor.shifts.planning.accounting import account

    question = (
        "the boss came by after lunch asking around, anyway just give me downtime by reason on 1st shift"
    )
    assert account(question, _routed(question, FIRST)).lines() == []


# --- the year so far -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        # The year so far, however said, is named "year to date", as docs/shifts-agent.md names it (round 13).
        ("what has downtime cost us so far this year", "year to date"),
        ("ytd knife jams", "year to date"),
        ("¿cuánto nos costó el tiempo muerto en lo que va del año?", "year to date"),
    ],
)
def test_the_year_so_far_is_named_never_answered_as_a_day(
    conn: duckdb.DuckDBPyConnection, question: str, said: str
) -> None:
    answer = ask(conn, question)
    assert answer["status"] in ("partial", "unavailable")
    assert f"Not applied: {said} (the windows read are a production day, a Mon–Fri week, a month" in _text(
        answer
    )


# --- a grade or a web width the records do not hold ----------------------------------------------------------


@pytest.mark.parametrize(
    "question", ["trim on the 90 inch web this week", "orilla en el ancho de 90 pulgadas esta semana"]
)
def test_a_width_not_in_the_records_is_named(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    plan = _routed(question)
    assert (plan.measure, plan.width) == ("waste", None)
    trim, gross = conn.execute(
        "SELECT sum(trim_sqft), sum(gross_sqft) FROM setups WHERE day BETWEEN ? AND ?", WEEK
    ).fetchone() or (None, None)
    answer = ask(conn, question)
    assert headline(answer).startswith(f"Side trim was **{100 * trim / gross:.2f} %** of gross")
    assert answer["status"] == "partial"
    assert "Not applied: the 90 in web (no web of that width is in the records: the webs are 98, 95, 92" in (
        _caveats(answer)
    )


def test_a_width_in_the_records_is_applied() -> None:
    assert _routed("trim on the 98 inch web this week").width == 98


@pytest.mark.parametrize("question", ["speed to target on 44-C this week", "velocidad del 44-C esta semana"])
def test_a_grade_not_in_the_records_is_named(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    plan = _routed(question)
    assert (plan.measure, plan.grade) == ("fpm", None)
    answer = ask(conn, question)
    assert answer["status"] == "partial"
    assert "Not applied: grade 44-C (no grade of that name is in the records: the grades are 26-C" in (
        _caveats(answer)
    )


# --- what we made or earned is a profit ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "how much money did we make this week",
        "what did we earn this week",
        "¿cuánto ganamos esta semana?",
        "cuanto revenue perdimos esta semana",
    ],
)
def test_what_we_made_is_a_profit_partial_naming_revenue_and_margin(
    conn: duckdb.DuckDBPyConnection, question: str
) -> None:
    plan = _routed(question)
    assert (plan.measure, plan.window) == ("opportunities", "week")
    answer = ask(conn, question)
    assert answer["status"] == "partial"
    assert "Profit needs revenue and a contribution margin: the records hold neither" in _caveats(answer)


def test_what_we_made_on_a_day_is_the_diagnosis(conn: duckdb.DuckDBPyConnection) -> None:
    assert _routed("how much money did 1st shift make", FIRST).measure == "overview"
    # "How much did we make" without money is the board made: volume, never a profit.
    assert _routed("how much did we make on 1st shift", FIRST).measure == "volume"


# --- a place in the singular; a limit word without its vowels; a yes/no texted with its question mark ----------


@pytest.mark.parametrize(
    "question", ["glue dam downtime on 1st shift", "paros en la glue dam del primer turno"]
)
def test_a_place_named_in_the_singular_is_that_place(conn: duckdb.DuckDBPyConnection, question: str) -> None:
    plan = _routed(question, FIRST)
    assert plan.place == "Glue dams"
    stops = _one(conn, "SELECT count(*) FROM stops WHERE day = ? AND shift = 1 AND place = 'Glue dams'", DAY)
    assert stops == 0
    answer = ask(conn, question, FIRST)
    assert headline(answer).startswith("Glue dams: no stop recorded here (0 stops)")
    assert "Not understood" not in _caveats(answer)


@pytest.mark.parametrize(
    ("question", "ask_"),
    [
        ("maint dt ovr the band on 1st?", "over_band"),
        ("1st shift maintenance undr the band?", "within_band"),
        ("maintenance downtime over the band on first shift?", "over_band"),
    ],
)
def test_a_bands_yes_or_no_texted_short_is_answered_yes_or_no(
    conn: duckdb.DuckDBPyConnection, question: str, ask_: str
) -> None:
    assert_first_shifts_maintenance_verdict(conn, question, ask_)


def test_a_question_word_with_its_question_mark_asks_no_verdict() -> None:
    assert _routed("what was maintenance downtime over the band on 1st?").ask is None


# --- the address writes the breakdown and lens, their defaults included (docs/URLS.md) --------------------------


def test_the_address_writes_the_default_breakdown_and_lens() -> None:
    assert (
        _routed("downtime on 1st shift", FIRST).address()
        == "/a?day=2026-09-16&shift=1&measure=downtime&by=reason"
    )
    assert _routed("where did the money go this week").address() == (
        "/a?window=week&anchor=2026-09-16&measure=opportunities&lens=all"
    )
