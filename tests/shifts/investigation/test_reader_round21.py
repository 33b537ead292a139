"""The reader's round-21 classes (evals/blind-pending/shifts-r21.yaml), in our own words, English and Spanish,
against the hand-built store (conftest.py): a Spanish "cuánto" (singular) asks an amount, never a count, while
"cuántos"/"cuántas" count (docs/shifts-agent.md, "Reading", "Dates as people say them").

The store holds week B (2026-09-07..11), week A (2026-09-14..18) and Monday 2026-09-21.
"""

from __future__ import annotations

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.plans import Plan
from shopfloor.shifts.planning.reading import canonical
from shopfloor.shifts.planning.router import route

MONDAY = date(2026, 9, 21)


def _routed(question: str, scope: Scope) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


# --- "cuánto" is an amount, "cuántos" a count ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said", "not_said"),
    [
        ("cuanto tiempo muerto tuvimos ayer", "how much", "how many"),
        ("¿cuánta merma hubo el lunes?", "how much", "how many"),
        ("¿cuántos paros hubo ayer?", "how many", "how much"),
        ("cuantas veces se atasco la cuchilla", "how many", "how much"),
    ],
)
def test_spanish_singular_cuanto_is_an_amount(question: str, said: str, not_said: str) -> None:
    words = canonical(question)
    assert said in words
    assert not_said not in words


def test_operator_downtime_the_week_before_last_is_minutes_not_a_count() -> None:
    # From Monday 2026-09-21 the week before last is week B, which starts on Monday 2026-09-07.
    plan = _routed("cuanto tiempo muerto de operador hubo la semana antepasada?", Scope(day=MONDAY))
    assert plan.address() == "/a?window=week&anchor=2026-09-07&measure=pareto&by=kind&kind=Operator"


def test_how_many_stops_the_week_before_last_stays_a_count() -> None:
    plan = _routed("¿cuántos paros de operador hubo la semana antepasada?", Scope(day=MONDAY))
    assert plan.count
    assert "count=1" in plan.address()
