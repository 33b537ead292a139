"""The reader's classes after round 7 (the goldens it still failed safely), in our own words: a share of the
rejects, one day's shifts ranked, a crew's yes/no over a window, a window's area in square feet or MSF, and a
loss held against its band, as a yes/no or side by side (docs/shifts-agent.md, "The three rules")."""

from __future__ import annotations

from datetime import date

import pytest

from shopfloor.shifts import Scope
from shopfloor.shifts.planning.accounting import account, figures_not_led, more_values
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.reading import canonical, entities
from shopfloor.shifts.planning.router import route

DAY = date(2026, 10, 21)  # a Wednesday
EVERY = Scope(day=DAY)
SHIFT1 = Scope(day=DAY, shift=1, include="shift")


def _plan(question: str, scope: Scope = EVERY) -> Plan:
    plan = route(question, scope)
    assert isinstance(plan, Plan), plan
    return plan


# --- a share of the rejects -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "named"),
    [
        ("how much up warp on second shift", ("Up warp",)),
        ("the down-warp rejects", ("Down warp",)),
        ("warped sheets and delam", ("warp", "Bond - delamination")),
        ("bond rejects from raw material", ("bond", "Bond - paper/raw-material issue")),
        ("misaligned board and bales", ("misalignment", "bale")),
        ("the warp family", ("warp",)),
    ],
)
def test_a_reject_is_read_as_the_catalogue_names_it(said, named):
    # A reported reason names its own reject, never its family as well ("up warp" is not also "warp"); each
    # is listed in the order the question says it.
    assert entities(canonical(said)).rejects == named


@pytest.mark.parametrize(
    ("question", "scope", "reject", "window", "shift"),
    [
        ("what percent of the rejects on 2nd shift were bond", EVERY, "bond", "day", 2),
        ("down warp as a share of the rejects this week", EVERY, "Down warp", "week", None),
        (
            "fraction of our rejects that came from misalignment this month",
            EVERY,
            "misalignment",
            "month",
            None,
        ),
        (
            "how much of the rejected board was delam, as a percentage",
            SHIFT1,
            "Bond - delamination",
            "day",
            1,
        ),
    ],
)
def test_a_share_of_the_rejects_is_the_named_rejects_share_of_the_waste(
    question, scope, reject, window, shift
):
    plan = _plan(question, scope)
    assert (plan.measure, plan.ask, plan.reject, plan.window, plan.shift) == (
        "waste",
        "share",
        reject,
        window,
        shift,
    )
    # Nothing left unread, and the address carries the slot: the question may be answered by it.
    assert account(question, plan).lines() == []
    assert parse_address(plan.address()) == plan


def test_a_share_of_every_reject_asks_for_the_families_shares():
    plan = _plan("what percentage of the rejects was each family on 1st shift")
    assert (plan.measure, plan.ask, plan.reject, plan.shift) == ("waste", "share", None, 1)


def test_a_reject_named_without_a_share_is_its_own_row():
    plan = _plan("how much up warp did third shift have")
    assert (plan.measure, plan.reject, plan.ask, plan.shift) == ("waste", "Up warp", None, 3)


def test_shares_that_are_not_of_the_rejects_keep_their_own_reading():
    downtime = _plan("what percent of downtime was knife jams on 2nd")
    assert (downtime.measure, downtime.ask, downtime.reason) == ("downtime", "share", "Knife jam")
    tile = _plan("dry end percentage on 1st shift")
    assert (tile.measure, tile.metric, tile.ask) == ("kpis", "dry_end_pct", None)


def test_a_share_of_the_rejects_the_plan_does_not_ask_is_still_named():
    # The share is named as not applied when the plan the reader made does not ask for it.
    question = "is the warp share of rejects getting worse"
    plan = _plan(question)
    assert plan.measure == "trend" and plan.ask is None
    assert any("share of the rejects" in line for line in account(question, plan).lines())


def test_a_second_reject_is_named_as_not_applied():
    question = "what fraction of 3rd shift rejects were bond, the delam and the paper both"
    plan = _plan(question)
    assert (plan.reject, plan.ask) == ("bond", "share")
    missing, _also = more_values(question, plan)
    assert any(
        line.startswith("reject Bond - delamination (one reject per answer is applied") for line in missing
    )


def test_a_share_headline_without_its_percent_is_not_complete():
    plan = parse_address("/a?day=2026-10-21&shift=1&measure=waste&reject=warp&ask=share")
    assert figures_not_led(None, plan, "warp was **41.20 %** of the rejected area (query 1 · row 4).") == []
    assert figures_not_led(None, plan, "warp: **3,120.0 sq ft** of rejected area (query 1 · row 4).")
    # A percent of something else (the trim's share of gross) is not the share asked.
    assert figures_not_led(None, plan, "Side trim was **2.64 %** of gross (query 1 · row 1).")


# --- one day's shifts ranked ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("rank today's shifts by rejects", "quality"),
        ("rank the three shifts on downtime", "downtime"),
        ("shifts ranked by speed", "speed"),
        ("give me a ranking of the shifts", None),
    ],
)
def test_one_days_shifts_ranked_are_the_days_rankings(question, metric):
    plan = _plan(question)
    assert (plan.measure, plan.metric, plan.shift, plan.window) == ("rankings", metric, None, "day")
    assert not more_values(question, plan)[0]
    assert account(question, plan).lines() == []


def test_ranking_the_shifts_from_one_selected_shift_reads_the_whole_day():
    plan = _plan("rank the shifts on speed", SHIFT1)
    assert plan.address() == "/a?day=2026-10-21&measure=rankings&metric=speed"


def test_ranking_the_setups_of_a_shift_is_still_the_setups():
    plan = _plan("rank the setups by speed", SHIFT1)
    assert (plan.measure, plan.shift, plan.metric) == ("rankings", 1, "speed")


@pytest.mark.parametrize(
    ("question", "by", "metric"),
    [
        ("rank the shifts on quality this week", "shift", "quality"),
        ("which shift had the worst downtime last month", "shift", "downtime"),
        ("rank this week's shifts by rejects", "shift", "quality"),
        ("which crew had the most rejects this month", "crew", "quality"),
        ("which shift was best last week", "shift", None),  # speed to target, the comparison's own
    ],
)
def test_a_windows_shifts_or_crews_are_ranked_on_the_measure_asked(question, by, metric):
    plan = _plan(question)
    assert (plan.measure, plan.by, plan.metric) == ("compare_groups", by, metric)
    assert parse_address(plan.address()) == plan


# --- a crew's yes/no over a window -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "crew", "ask", "window"),
    [
        ("was crew B below target last month", "B", "below_target", "month"),
        ("did crew A make target this week?", "A", "at_target", "week"),
        ("is crew D behind target this period", "D", "below_target", "fiscal"),
    ],
)
def test_a_crews_yes_no_over_a_window_is_its_speed_to_target(question, crew, ask, window):
    plan = _plan(question)
    assert (plan.measure, plan.crew, plan.ask, plan.window, plan.by) == ("fpm", crew, ask, window, "crew")


def test_a_crews_verdict_leads_or_the_answer_is_not_complete():
    plan = parse_address("/a?window=month&anchor=2026-10-21&measure=fpm&by=crew&crew=B&ask=below_target")
    led = "Yes: Crew B ran at **83.10 %** of grade target speed against 100 % over October 2026 (query 4 · row 2)."
    assert figures_not_led("was crew B below target this month", plan, led) == []
    assert figures_not_led("was crew B below target this month", plan, "Crew B ran at **83.10 %** (query 4)")


# --- a window's area in square feet or MSF ---------------------------------------------------------------


@pytest.mark.parametrize("question", ["square feet we made this week", "good board in sq ft last month"])
def test_a_windows_area_is_its_volume_with_the_windows_tiles(question):
    plan = _plan(question)
    assert plan.measure == "volume" and plan.window != "day"


def test_a_window_unit_is_unled_only_when_one_groups_figure_leads():
    question = "MSF this week"
    plan = _plan(question)
    grade = "The largest volume was 32-C at **7,546.0 MSF** (query 1 · row 1)."
    window = "Gross board was **24,120.4 MSF** over Week of 2026-10-19 (Mon–Fri) (query 2)."
    assert any("whole window" in line for line in figures_not_led(question, plan, grade, "get_grade_totals"))
    assert figures_not_led(question, plan, window, "get_period_kpis") == []


# --- a loss held against its band -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "metric", "ask", "shift", "window"),
    [
        ("was operator downtime over the band on 3rd", "operator_pct", "over_band", 3, "day"),
        ("is 1st shift's dry end within the 1% flag?", "dry_end_pct", "within_band", 1, "day"),
        ("were maintenance stops above 2.5% this week", "maintenance_pct", "over_band", None, "week"),
        ("so was 2nd over the maint band yesterday or not", "maintenance_pct", "over_band", 2, "day"),
        ("did the rejects go over the flag on second shift, yes or no", "dry_end_pct", "over_band", 2, "day"),
        ("is maintenance over target on first shift", "maintenance_pct", "over_band", 1, "day"),
    ],
)
def test_a_loss_held_to_its_band_as_a_yes_no(question, metric, ask, shift, window):
    plan = _plan(question)
    assert (plan.measure, plan.metric, plan.ask, plan.shift, plan.window) == (
        "kpis",
        metric,
        ask,
        shift,
        window,
    )
    assert account(question, plan).lines() == []
    assert parse_address(plan.address()) == plan


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("how does maintenance downtime on 2nd stack up against the band", "maintenance_pct"),
        ("3rd shift operator downtime vs the 2.5% band", "operator_pct"),
        ("how did the dry end on 1st compare to the flag", "dry_end_pct"),
    ],
)
def test_a_loss_beside_its_band_is_its_tile_against_the_band(question, metric):
    plan = _plan(question)
    assert (plan.measure, plan.metric, plan.ask) == ("kpis", metric, None)
    assert account(question, plan).lines() == []


def test_losses_without_an_owner_band_keep_their_own_reading():
    # Trim is flagged per setup and planned maintenance has no band; a count of shifts is no verdict.
    assert _plan("how did trim on 2nd compare to the flag").measure == "waste"
    assert _plan("how many shifts went over the maintenance band last month").ask is None
    assert _plan("downtime review against the bands this month").measure == "review"
    # The target beside a speed word is the speed's, whatever loss is named with it.
    assert _plan("did maintenance hold back our speed to target on 2nd").measure != "kpis"


def test_a_threshold_other_than_the_band_is_named_as_not_applied():
    question = "was 2nd shift maintenance downtime over 5%"
    plan = _plan(question)
    assert (plan.metric, plan.ask) == ("maintenance_pct", "over_band")
    assert any("the threshold 5 %" in line for line in account(question, plan).lines())


def test_a_band_verdict_that_does_not_lead_is_not_complete():
    plan = parse_address("/a?day=2026-10-21&shift=2&measure=kpis&metric=maintenance_pct&ask=over_band")
    led = "Yes: Maintenance downtime was **2.75 %** of scheduled minutes against its 2.5 % band: over it (query 1 · row 7)."
    assert figures_not_led(None, plan, led) == []
    assert figures_not_led(None, plan, "Maintenance downtime was **2.75 %** (query 1 · row 7).")
    with pytest.raises(ValueError):
        parse_address("/a?day=2026-10-21&shift=2&measure=kpis&metric=trim_pct&ask=over_band")
