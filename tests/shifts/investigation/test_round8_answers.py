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


# --- one day's shifts ranked ------------------------------------------------------------------------------

# Each shift's speed to target, unplanned (maintenance plus operator) downtime and dry-end waste on one day,
# from the store's own rows.
SHIFT_FIGURES = """
    WITH su AS (SELECT shift, 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) AS speed,
                       100 * sum(reject_sqft) / sum(gross_sqft) AS quality
                FROM setups WHERE day = ? GROUP BY shift),
         st AS (SELECT shift, coalesce(sum(minutes) FILTER (WHERE kind IN ('Maintenance', 'Operator')), 0)
                       AS unplanned FROM stops WHERE day = ? GROUP BY shift)
    SELECT su.shift, su.speed, 100 * coalesce(st.unplanned, 0) / sh.scheduled_min AS downtime, su.quality
    FROM su JOIN shifts sh ON sh.day = ? AND sh.shift = su.shift LEFT JOIN st ON st.shift = su.shift
    ORDER BY su.shift
"""


def shift_figures(conn, day: date) -> dict[str, list[tuple[int, float]]]:
    rows = conn.execute(SHIFT_FIGURES, [day, day, day]).fetchall()
    return {
        "speed": [(r[0], round(r[1], 2)) for r in rows],
        "downtime": [(r[0], round(r[2], 2)) for r in rows],
        "quality": [(r[0], round(r[3], 2)) for r in rows],
    }


def best_first(pairs: list[tuple[int, float]], higher: bool) -> list[int]:
    return [shift for shift, _v in sorted(pairs, key=lambda p: (-p[1] if higher else p[1], p[0]))]


def test_the_days_shifts_ranked_on_speed_best_first(conn):
    figures = shift_figures(conn, WED)["speed"]
    answer = investigate("rank the shifts on speed today", SHIFT2, conn)
    assert answer.status == "complete", caveats(answer)
    assert answer.address == "/a?day=2026-09-16&measure=rankings&metric=speed"
    order = best_first(figures, higher=True)
    top = dict(figures)[order[0]]
    # Ranked on speed, the day's shifts lead as a comparison does: the best and the worst of the three.
    assert headline(answer).startswith(
        f"Shift {order[0]} was the best of the three shifts on Wed 2026-09-16 at **{top:,.2f} %** speed to target"
    )
    env = next(e for e in answer.evidence if e["tool"] == "get_group_comparison")
    assert [r["shift"] for r in env["rows"]] == order
    held(answer)


def test_the_days_shifts_ranked_on_quality_and_on_downtime(conn):
    figures = shift_figures(conn, WED)
    for question, metric, words in (
        ("rank today's shifts by rejects", "quality", "on dry-end waste"),
        ("rank the shifts on downtime", "downtime", "on unplanned downtime"),
    ):
        answer = investigate(question, EVERY, conn)
        assert answer.status == "complete", caveats(answer)
        order = best_first(figures[metric], higher=False)
        top = dict(figures[metric])[order[0]]
        assert headline(answer).startswith(
            f"Shift {order[0]} was the best shift of the day {words} at **{top:,.2f} %**"
        ), headline(answer)
        env = next(e for e in answer.evidence if e["tool"] == "get_group_comparison")
        assert [r["shift"] for r in env["rows"]] == order
        held(answer)


def test_a_day_with_excluded_records_lists_its_shifts_unranked(conn):
    # 2026-09-21 has an excluded record on shift 2: the shifts are listed, never ranked.
    answer = investigate("rank the shifts on speed", Scope(day=date(2026, 9, 21)), conn)
    assert headline(answer).startswith("The shifts are compared, not ranked")
    assert "(best)" not in caveats(answer) and "rank 1" not in str(answer.sections)
    held(answer)


def test_a_weeks_shifts_ranked_on_the_measure_asked(conn):
    monday, friday = date(2026, 9, 14), date(2026, 9, 18)
    quality = conn.execute(
        "SELECT shift, 100 * sum(reject_sqft) / sum(gross_sqft) FROM setups WHERE day BETWEEN ? AND ? "
        "GROUP BY shift",
        [monday, friday],
    ).fetchall()
    order = best_first([(s, round(v, 2)) for s, v in quality], higher=False)
    answer = investigate("rank the shifts on quality this week", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"Shift {order[0]} was the best shift of the window on dry-end waste")
    env = next(e for e in answer.evidence if e["tool"] == "get_group_comparison")
    assert [r["shift"] for r in env["rows"]] == order
    held(answer)


# --- a crew's yes/no over a window -------------------------------------------------------------------------

CREW_SPEED = """
    SELECT 100 * sum(gross_feet) / sum(target_fpm * elapsed_min) FROM setups
    WHERE day BETWEEN ? AND ? AND crew = ?
"""
WEEK_A = (date(2026, 9, 14), date(2026, 9, 18))


def test_a_crew_under_target_over_a_week_is_answered_yes(conn):
    speed = one(conn, CREW_SPEED, [*WEEK_A, "B"])
    assert speed < 100
    answer = investigate("is crew B under target this week", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"Yes: Crew B ran at **{speed:,.2f} %** of grade target speed")
    held(answer)


def test_a_crew_that_missed_target_did_not_make_it(conn):
    speed = one(conn, CREW_SPEED, [*WEEK_A, "C"])
    answer = investigate("did crew C hit target this week?", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"No: Crew C ran at **{speed:,.2f} %** of grade target speed")
    assert "Yes" not in " ".join(s["text"] for s in answer.sections)
    held(answer)


def test_a_crew_named_over_a_window_leads_with_its_own_speed_to_target(conn):
    speed = one(conn, CREW_SPEED, [*WEEK_A, "A"])
    answer = investigate("speed to target for crew A this week", EVERY, conn)
    assert headline(answer).startswith(f"Crew A ran at **{speed:,.2f} %** of grade target speed")
    held(answer)


def test_a_crews_verdict_on_a_partial_week_is_partial(conn):
    # The week of 2026-09-21 holds one day, with an excluded record on shift 2.
    answer = investigate("is crew A under target this week", Scope(day=date(2026, 9, 21)), conn)
    assert answer.status == "partial"
    assert headline(answer).startswith("Yes: Crew A ran at")
    assert "The window is partial" in caveats(answer)
    held(answer)


# --- a window's area in square feet or MSF ---------------------------------------------------------------

AREA = """
    SELECT sum(gross_sqft), sum(gross_sqft - trim_sqft - shear_sqft - reject_sqft) FROM setups
    WHERE day BETWEEN ? AND ?
"""


def test_a_weeks_square_feet_lead_with_the_weeks_gross_area(conn):
    gross, _good = conn.execute(AREA, list(WEEK_A)).fetchone()
    answer = investigate("square feet we made this week", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"Gross area was **{gross:,.1f} sq ft** over Week of 2026-09-14")
    held(answer)


def test_last_weeks_good_board_in_square_feet_leads_with_the_estimated_good_area(conn):
    _gross, good = conn.execute(AREA, list(WEEK_A)).fetchone()
    answer = investigate("good board in sq ft last week", Scope(day=date(2026, 9, 21)), conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(
        f"Estimated good area was **{good:,.1f} sq ft** over Week of 2026-09-14"
    )
    held(answer)


def test_a_weeks_msf_leads_with_the_weeks_gross_board(conn):
    gross, _good = conn.execute(AREA, list(WEEK_A)).fetchone()
    answer = investigate("how many MSF did we run this week", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"Gross board was **{gross / 1000:,.1f} MSF** over Week of 2026-09-14")
    held(answer)


def test_the_whole_days_msf_leads_shift_by_shift_with_the_days_sum(conn):
    rows = conn.execute(
        "SELECT shift, sum(gross_sqft) / 1000 FROM setups WHERE day = ? GROUP BY shift ORDER BY shift", [WED]
    ).fetchall()
    answer = investigate("how many MSF did the whole day make", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    first = f"Shift 1 ran **{rows[0][1]:,.1f} MSF** of gross board"
    total = f"{sum(r[1] for r in rows):,.1f} MSF in all"
    assert headline(answer).startswith(first) and total in headline(answer)
    held(answer)


# --- a loss held against its band -------------------------------------------------------------------------

# A shift's maintenance and operator minutes of its scheduled minutes, and its rejects of its gross area.
SHIFT_LOSSES = """
    SELECT 100 * (SELECT coalesce(sum(minutes), 0) FROM stops WHERE day = ? AND shift = ? AND kind = 'Maintenance')
               / sh.scheduled_min,
           100 * (SELECT coalesce(sum(minutes), 0) FROM stops WHERE day = ? AND shift = ? AND kind = 'Operator')
               / sh.scheduled_min,
           100 * (SELECT sum(reject_sqft) / sum(gross_sqft) FROM setups WHERE day = ? AND shift = ?)
    FROM shifts sh WHERE sh.day = ? AND sh.shift = ?
"""


def losses(conn, day: date, shift: int) -> tuple[float, float, float]:
    maint, oper, dry = conn.execute(SHIFT_LOSSES, [day, shift] * 4).fetchone()
    return float(maint), float(oper), float(dry)


def test_maintenance_over_its_band_is_answered_yes(conn):
    maint, _oper, _dry = losses(conn, WED, 2)
    assert maint > 2.5
    answer = investigate("was maintenance downtime over the band on 2nd shift", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(
        f"Yes: Maintenance downtime was **{maint:,.2f} %** of scheduled minutes against its 2.5 % band: over it"
    )
    held(answer)


def test_maintenance_within_its_band_is_answered_no(conn):
    maint, _oper, _dry = losses(conn, WED, 1)
    assert maint <= 2.5
    answer = investigate("so was first shift over the maintenance band or not", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"No: Maintenance downtime was **{maint:,.2f} %**")
    held(answer)


def test_the_dry_end_within_its_flag_is_answered_yes(conn):
    _maint, _oper, dry = losses(conn, WED, 2)
    answer = investigate("is the dry end on 2nd within the 1% flag?", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(f"Yes: Dry-end waste was **{dry:,.2f} %** of gross (flag above 1 %)")
    held(answer)


def test_operator_downtime_beside_its_band_leads_with_the_tile(conn):
    _maint, oper, _dry = losses(conn, WED, 1)
    answer = investigate("how does 1st shift operator downtime stack up to the 2.5% target", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    assert headline(answer).startswith(
        f"Operator downtime was **{oper:,.2f} %** of scheduled minutes against its 2.5 % band: within it"
    )
    held(answer)


def test_a_days_band_verdict_over_every_shift_reads_the_whole_day(conn):
    maint = one(
        conn,
        "SELECT 100 * (SELECT sum(minutes) FROM stops WHERE day = ? AND kind = 'Maintenance') "
        "/ (SELECT sum(scheduled_min) FROM shifts WHERE day = ?)",
        [WED, WED],
    )
    answer = investigate("was maintenance over the band today", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    word = "Yes" if maint > 2.5 else "No"
    assert headline(answer).startswith(f"{word}: Maintenance downtime was **{maint:,.2f} %**")
    held(answer)


def test_a_weeks_band_verdict_reads_the_week(conn):
    maint = one(
        conn,
        "SELECT 100 * (SELECT sum(minutes) FROM stops WHERE day BETWEEN ? AND ? AND kind = 'Maintenance') "
        "/ (SELECT sum(scheduled_min) FROM shifts WHERE day BETWEEN ? AND ?)",
        [*WEEK_A, *WEEK_A],
    )
    answer = investigate("is maintenance downtime over the 2.5 band this week", EVERY, conn)
    assert answer.status == "complete", caveats(answer)
    word = "Yes" if maint > 2.5 else "No"
    assert headline(answer).startswith(f"{word}: Maintenance downtime was **{maint:,.2f} %**")
    assert "over Week of 2026-09-14" in headline(answer)
    held(answer)


def test_a_threshold_other_than_the_band_makes_the_verdict_partial(conn):
    answer = investigate("was 2nd shift maintenance downtime over 5%", EVERY, conn)
    assert answer.status == "partial"
    assert "the threshold 5 % (the verdict is held to the owner's band, 2.5 %" in caveats(answer)
