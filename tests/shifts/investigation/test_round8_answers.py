"""The round-8 classes answered on the hand-built store: each headline leads with the figure asked, and
every expected figure is recomputed here with SQL of our own over the store, never by the code under test
(docs/shifts-agent.md, "The three rules")."""

from __future__ import annotations

from datetime import date

from shopfloor.shifts import Scope, investigate
from shopfloor.shifts.evals import invariants

WED = date(2026, 9, 16)  # inside week A, every shift complete
EVERY = Scope(day=WED)
SHIFT1 = Scope(day=WED, shift=1, include="shift")
SHIFT2 = Scope(day=WED, shift=2, include="shift")


def headline(answer) -> str:
    return next(s["text"] for s in answer.sections if s["type"] == "headline")


def caveats(answer) -> str:
    return " ".join(s["text"] for s in answer.sections if s["type"] in ("caveat", "text"))


def one(conn, sql: str, params: list) -> float:
    value = conn.execute(sql, params).fetchone()[0]
    return float(value)


def held(answer) -> None:
    """The global invariants hold on the answer (bold figure = cited row, no ranking when partial, charts)."""
    assert invariants(answer.as_dict()) == []


# --- a share of the rejects -------------------------------------------------------------------------------

REJECT_SHARE = """
    SELECT 100 * coalesce(sum(sqft) FILTER (WHERE family = ? OR reason = ?), 0) / sum(sqft)
    FROM rejects WHERE day BETWEEN ? AND ? AND (? IS NULL OR shift = ?)
"""


def test_a_familys_share_of_the_days_rejects_leads(conn):
    share = one(conn, REJECT_SHARE, ["warp", "warp", WED, WED, None, None])
    answer = investigate("what percentage of today's rejects were warp", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"warp was **{share:,.2f} %** of the rejected area")
    held(answer)


def test_a_reported_reasons_share_on_one_shift_leads(conn):
    # Shift 1's only rejects are up warp: all of its rejected area.
    share = one(conn, REJECT_SHARE, ["Up warp", "Up warp", WED, WED, 1, 1])
    answer = investigate("up warp as a share of the rejects on first shift", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert share == 100.0
    assert headline(answer).startswith("Up warp was **100.00 %** of the rejected area")
    assert "(query 1 · detail 1)" in headline(answer)
    held(answer)


def test_a_reasons_share_over_a_week_leads(conn):
    monday, friday = date(2026, 9, 14), date(2026, 9, 18)
    share = one(conn, REJECT_SHARE, ["Bond - paper/raw-material issue"] * 2 + [monday, friday, None, None])
    answer = investigate("what fraction of this week's rejects were raw-material issues", EVERY, conn)
    assert answer.address.startswith("/a?window=week&anchor=2026-09-16&measure=waste")
    assert headline(answer).startswith(f"Bond - paper/raw-material issue was **{share:,.2f} %**")
    held(answer)


def test_a_reject_with_no_record_is_none_of_the_rejects(conn):
    # The store holds no misalignment reject at all.
    assert one(conn, "SELECT count(*) FROM rejects WHERE family = 'misalignment'", []) == 0
    answer = investigate("what percent of the rejects were misalignment today", EVERY, conn)
    assert answer.status == "complete"
    assert headline(answer).startswith("misalignment was none of the rejected area here (0 %)")


def test_a_named_reject_without_a_share_leads_with_its_area(conn):
    area = one(conn, "SELECT sum(sqft) FROM rejects WHERE day = ? AND shift = 2 AND family = 'bond'", [WED])
    answer = investigate("how much bond did 2nd shift reject", EVERY, conn)
    assert headline(answer).startswith(f"bond: **{area:,.1f} sq ft** of rejected area")
    held(answer)


def test_a_reject_named_where_no_row_shows_it_is_not_applied(conn):
    answer = investigate("is warp getting worse", EVERY, conn)
    assert answer.status == "partial"
    assert "Not applied: reject warp" in caveats(answer)
