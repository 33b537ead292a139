"""Several values of one entity kind: each honoured or named as not applied, never the first silently."""

from datetime import date

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.planning.scope_words import named_shifts

DAY = Scope(day=date(2026, 9, 16))
SHIFT2 = Scope(day=date(2026, 9, 16), shift=2, include="shift")


def caveats(answer):
    return " ".join(s["text"] for s in answer.sections if s["type"] == "caveat")


def test_shift_numbers_listed_after_one_shift_word():
    assert named_shifts("downtime for shifts 1 and 3") == [1, 3]
    assert named_shifts("compare shifts 1, 2 and 3") == [1, 2, 3]
    assert named_shifts("shift 1 and 30 minutes") == [1]


def test_every_shift_named_is_every_shift_not_the_first_two(conn):
    answer = investigate("compare shifts 1, 2 and 3", DAY, conn)
    assert answer.address == "/a?day=2026-09-16&measure=compare_shifts"


def test_second_grade_grouped_is_said_as_read(conn):
    answer = investigate("fpm by grade for 26-C and 32-C", DAY, conn)
    assert answer.status == "complete"
    assert "Also read: grade 32-C (in the rows by grade)." in caveats(answer)


def test_second_crew_is_named_as_not_applied(conn):
    answer = investigate("show the KPIs for crew B and crew C", SHIFT2, conn)
    assert answer.status == "partial"
    assert "crew C (one crew per answer is applied, crew B; ask about C on its own)" in caveats(answer)


def test_second_place_grouped_is_said(conn):
    answer = investigate("downtime at splicer 1 and the upper knife", DAY, conn)
    assert "place Upper knife" in answer.read_as
    assert "Also read: place Splicer 1 (in the rows by place)." in caveats(answer)
