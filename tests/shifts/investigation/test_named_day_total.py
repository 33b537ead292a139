"""A named reason, place or kind asked over the day's scope (every shift) leads with the day's total over
every shift, then each shift's own figure cited to its row; a shift's scope keeps its one shift
(docs/shifts-agent.md, "Reading"). Figures by hand from tests/shifts/investigation/conftest.py: on
2026-09-18 shift 1 has a 10-minute knife jam at the upper knife (Maintenance), shift 2 a 20-minute knife jam
at the upper knife (Maintenance) and 30 minutes of scheduled maintenance at Plant (PM), shift 3 a 15-minute
power outage at Plant (External)."""

from __future__ import annotations

from datetime import date

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.answers.sayings import spoken
from shopfloor.shifts.evals import check_figures
from shopfloor.shifts.pages.i18n import translations

DAY = Scope(day=date(2026, 9, 18), shift=1, include="day")
SHIFT1 = Scope(day=date(2026, 9, 18), shift=1, include="shift")


def _head(answer) -> str:
    return next(s["text"] for s in answer.sections if s["type"] == "headline")


def test_a_reason_over_the_day_leads_with_every_shifts_total(conn):
    answer = investigate("knife jam downtime", DAY, conn)
    head = _head(answer)
    # 10 + 20 = 30 min over 1 + 1 = 2 stops; each shift's figure is bold and cited to its own row.
    assert head.startswith("Knife jam: 30.0 min over 2 stops over every shift")
    assert "**10.0 min** over 1 stop on shift 1 (query 1 · row" in head
    assert "**20.0 min** over 1 stop on shift 2 (query 2 · row" in head
    assert "shift 3" not in head
    # Each bold figure is a value of the row it cites; the sum, no row's value, is not bold.
    assert check_figures({"evidence": answer.evidence, "sections": answer.sections}) == []


def test_a_place_over_the_day_leads_with_every_shifts_total(conn):
    answer = investigate("downtime at the upper knife", DAY, conn)
    head = _head(answer)
    # The upper knife: shift 1's 10-minute and shift 2's 20-minute knife jams, 30 min over 2 stops.
    assert head.startswith("Upper knife: 30.0 min over 2 stops over every shift"), head
    assert "**10.0 min** over 1 stop on shift 1" in head
    assert "**20.0 min** over 1 stop on shift 2" in head


def test_a_reason_one_shift_of_the_day_recorded_says_so(conn):
    # Only shift 1 has a missed splice: 5 minutes, one stop.
    answer = investigate("missed splice downtime", DAY, conn)
    assert _head(answer).startswith("Missed splice: **5.0 min** over 1 stop, all on shift 1")


def test_a_shift_scope_keeps_its_one_shift(conn):
    answer = investigate("knife jam downtime", SHIFT1, conn)
    head = _head(answer)
    assert head.startswith("Knife jam: **10.0 min** over 1 stop") and "shift" not in head


def test_a_kind_over_the_day_leads_with_every_shifts_total(conn):
    answer = investigate("maintenance downtime by kind", DAY, conn)
    head = _head(answer)
    # Maintenance: the two knife jams, 10 + 20 = 30 min over 2 stops.
    assert head.startswith("Maintenance: 30.0 min over 2 stops over every shift"), head
    assert "**10.0 min** over 1 stop on shift 1" in head and "**20.0 min** over 1 stop on shift 2" in head


def test_a_reason_by_place_over_the_day_leads_with_every_shifts_total(conn):
    answer = investigate("knife jams by place", DAY, conn)
    head = _head(answer)
    assert head.startswith("Knife jam by place: 30.0 min over 2 stops over every shift"), head
    assert "**10.0 min** over 1 stop on shift 1 (query 1)" in head
    assert "**20.0 min** over 1 stop on shift 2 (query 2)" in head
    assert check_figures({"evidence": answer.evidence, "sections": answer.sections}) == []


def test_the_day_total_is_said_in_spanish(conn):
    answer = investigate("knife jam downtime", DAY, conn)
    head = next(s for s in answer.sections if s["type"] == "headline")
    text = spoken(head, translations("es"))["text"]
    assert "30.0 min en 2 paros en todos los turnos" in text, text
    assert "en el turno 2" in text
