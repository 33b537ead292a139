"""The offline router: a question plus its scope becomes a plan, or an honest "unavailable".

Pure text rules, no store. The speed-or-volume decision lives in one function,
:func:`speed_or_volume`, and both the day path and the period path take it from there, so a phrasing cannot
route one way without a window and another way with "this week". Scope words in the question (a named
shift, yesterday, last week, last month, last period) move the scope before the intent is parsed. Both rules
are stated in docs/shifts-agent.md, "Flow", step 2.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Literal

from shopfloor.shifts.planning.comparisons import (
    ALL_SHIFTS,
    COMPARE_SHIFTS,
    TIME_LOST,
    compared_on,
    group_comparison,
    lead_asked,
    shifts_ranked,
)
from shopfloor.shifts.planning.follow_ups import BEFORE, follow_said, is_follow_up
from shopfloor.shifts.planning.measures import DAY_ONLY
from shopfloor.shifts.planning.plans import Plan, Unavailable
from shopfloor.shifts.planning.reading import Entities, canonical, entities
from shopfloor.shifts.planning.refused import refused as refused_before_reading
from shopfloor.shifts.planning.scope_words import (
    ScopeWords,
    clock_said,
    normalize,
    scope_words,
)
from shopfloor.shifts.planning.scope_words import (
    has as _has,
)
from shopfloor.shifts.planning.slots import with_entities
from shopfloor.shifts.planning.stories import asked_clause, first_ask, story_scope
from shopfloor.shifts.plant.calendar import Period, previous_window, window_for
from shopfloor.shifts.plant.scope import Scope

Cue = Literal["speed", "volume", "setups", "diagnosis", "speed_trend"]
MAX_QUESTION_CHARS = 500


# --- the one speed-or-volume decision (docs/shifts-agent.md, Flow) ------------------------------------------

_SPEED = r"\b(speed|speeds|fpm|ft/min|feet per minute|fast|faster|fastest|pace|slow|slower|slowest)\b"
_VOLUME = (
    r"\b(throughput|output|volume|made|produced|msf|lineal|footage)\b"
    # The board made in square feet ("square feet of good board", "good sq ft last wk").
    r"|\bgood (board|area|sq\.? ?ft|square f(ee|oo)t)\b|\bsq\.? ?ft\b|\bsqft\b|\bsquare f(ee|oo)t\b"
)
# A volume cue attached to a volume ask keeps a question with a speed word on volume.
_VOLUME_ASK = (
    # "How much board did we run this month": the board, paper or product made is the volume.
    r"\bhow much (?:(?:good |corrugated )?(?:board|paper|product) )?(did|do|have|has) (we|the shift|the line|they|it)"
    r" (make|made|produce|produced|run|ran)\b"
    r"|\b(ran|made|produced|run) the most\b|\bshare of (output|volume|production|footage)\b"
    r"|\bmost (output|volume|footage|msf)\b"
)
LOSS_WORDS = (
    r"\b(stops?|stopped|downtime|down time|waste|trim|rejects?|rejected|quality|scrap|jams?|dry[- ]end)\b"
)
# A speed word asking how fast a paper change, changeover or setup went is a setup question.
_CHANGE_SPEED = (
    r"\b(fast|quick|quickly|slow|slowly)\s+(?:(?:did|do|does|were|was|are|is)\s+)?(?:(?:we|the|our)\s+)?"
    r"(?:change(?:d|s)?\s+(?:the\s+)?paper|paper\s+changes?|changeovers?|change-overs?|setups?|set-ups?"
    r"|changing\s+paper)\b"
)
_DIAGNOSIS = r"\b(slow|bad|killed|kill|rough|terrible|awful)\b"
_SLOWER_THAN_NORMAL = r"\bslower than (normal|usual|typical|average)\b"


def speed_or_volume(question: str) -> Cue | None:
    """Decide speed, volume, setups, a diagnosis or the speed trend from the measure words (docs/shifts-agent.md).

    The only place speed and volume words live. ``None`` means the question is neither (or a "slow" that a
    loss word keeps on the losses), and the caller routes on its other words.
    """
    q = normalize(question)
    if _has(q, _CHANGE_SPEED):
        return "setups"
    if _has(q, _SLOWER_THAN_NORMAL):
        return "speed_trend"
    has_loss = _has(q, LOSS_WORDS)
    if _has(q, _DIAGNOSIS):
        speed_words = set(re.findall(_SPEED, q))
        if has_loss and speed_words <= {"slow", "slower"}:
            return None  # "slow because of stops" stays on the losses
        if not has_loss:
            return "diagnosis"
    has_speed = _has(q, _SPEED)
    if has_speed:
        if has_loss and set(re.findall(_SPEED, q)) <= {"slow", "slower"}:
            return None
        return "volume" if _has(q, _VOLUME_ASK) else "speed"
    if _has(q, _VOLUME) or _has(q, _VOLUME_ASK):
        return "volume"
    return None


def grouping(question: str) -> str | None:
    """The breakdown a grouping word asks for (it never decides the measure)."""
    q = normalize(question)
    for by, pattern in (
        # A board grade named by its code ("275-BC") asks for the per-grade rows, where that grade is one.
        ("grade", r"\b(by|per|each|every|which) (board )?grades?\b|\bgrades?\b|\b\d{2,3}-[a-z]{1,2}\b"),
        ("width", r"\b(by|per|each) (web )?width\b|\bwidths?\b"),
        ("crew", r"\b(by|per|each) crew\b|\bcrews?\b"),
        ("place", r"\b(by|per) (place|location|machine|equipment)\b|\bwhere\b|\bplaces?\b"),
        ("kind", r"\b(by|per) (kind|type|category)\b"),
    ):
        if _has(q, pattern):
            return by
    return None


# --- intents ---------------------------------------------------------------------------------------------

# Money words: the router sends them to the money tools, and the done condition asks for a cost basis.
MONEY_WORDS = r"\$|\bdollars?\b|\bmoney\b|\bcosts?\b|\bcosting\b|\bcost us\b|\bworth\b|\bspend\b"
# A cost said in time ("which machine cost us the most downtime", "cost us 40 minutes"): the loss asked is the
# downtime's minutes, never the money levers (docs/shifts-agent.md, "Reading").
TIME_COST = (
    r"\bcost(?:s|ed|ing)?(?: us| me| them| the line)?(?: the)?(?: most| more| much| más| a lot of| \d+)?"
    r" (?:of )?(?:downtime|down time|minutes|mins|hours|hrs)\b"
)


def money_asked(q: str) -> bool:
    """Whether ``q`` asks for money: a money word, unless the only cost said is one in time (TIME_COST)."""
    return _has(re.sub(TIME_COST, " downtime ", q), MONEY_WORDS)


# What we made or earned is a profit: the diagnosis (a window's levers), partial, naming the missing revenue and
# margin ("how much money did we make last month", "what did we earn"); never the losses said as complete.
PROFIT = (
    r"\bprofit|\bmargins?\b|\brevenues?\b|\bearn(ed|ing|ings|s)?\b|\bincome\b"
    r"|\b(make|made|making|net|netted|clear|cleared) (any |much |more |less |the |some |good )?money\b"
    r"|\bmoney (did|do|does|have|has) (\w+ ){1,3}(make|made|earn|net|clear)\b"
    r"|\bmoney (we|they) (made|make|earned)\b"
)
_CHART = r"\b(charts?|graphs?|plots?|visuali[sz]e)\b"


def route(question: str, scope: Scope, previous: Plan | None = None) -> Plan | Unavailable:
    """Turn ``question`` in ``scope`` into a plan (``previous`` is the plan a follow-up refers to)."""
    if len(question) > MAX_QUESTION_CHARS:
        return Unavailable(f"Questions are limited to {MAX_QUESTION_CHARS} characters.")
    q = clock_said(canonical(question))  # after the length check: a question over the limit is never read
    refused = refused_before_reading(question, q)
    if refused is not None:
        return refused
    words = scope_words(q, scope)
    if isinstance(words, Unavailable):
        return words
    if previous is not None and is_follow_up(q):
        return _follow_up(q, words, scope, previous)
    words = story_scope(q, words, scope)
    q = first_ask(asked_clause(q))
    if len(words.shifts) < 2 and _has(q, r"\bcompare\b.*\byesterday\b|\byesterday\b.*\bcompare"):
        # Comparing with yesterday needs two days; two shifts compared yesterday are one day's comparison.
        day = words.day.isoformat()
        shift_part = f"&shift={scope.shift}" if scope.shift is not None else ""
        return Unavailable(
            f"To compare with yesterday, set the date control to {day} and ask again, or open "
            f"/a?day={day}{shift_part}&measure=kpis beside this answer."
        )
    shift = scope.shift
    include = scope.include
    compare_shift: int | None = None
    # Naming every shift ("shifts 1, 2 and 3") is all shifts, never the first two.
    all_shifts = (_has(q, ALL_SHIFTS) and not words.shifts) or len(words.shifts) == 3
    if len(words.shifts) == 3:
        words = replace(words, shifts=())
    if len(words.shifts) == 1:
        shift = words.shifts[0]
    elif len(words.shifts) > 1:
        # Two shifts compared from one selected shift widen the scope to the production day, which holds
        # both (the answer's address says so, and the page's controls follow it).
        include = "day"
        shift, compare_shift = words.shifts[0], words.shifts[1]
    # The Period control is the default window; a window the question names wins.
    window: Period = words.window or scope.period
    if include == "day" and not words.shifts:
        shift = None  # the production-day scope reads every shift unless one is named (docs/shifts-agent.md)
    anchor = words.anchor or words.day
    chart = _has(q, _CHART)
    cue = speed_or_volume(q)
    by = grouping(q)
    base = Plan(
        measure="overview",
        day=words.day,
        shift=shift,
        include=include,
        window=window,
        anchor=anchor if window != "day" else words.day,
        chart=chart,
    )
    compared = _comparison(q, base, scope, words, compare_shift, all_shifts)
    if compared is not None:
        return compared
    measure, extra = _intent(q, cue, by, window, words)
    if isinstance(measure, Unavailable):
        return measure
    plan = with_entities(replace(base, measure=measure, **extra), entities(q))
    if plan.measure in ("downtime", "pareto") and plan.reason and plan.place is None and _has(q, PLACE_ASKED):
        # A reason asked by place ("missed splices by place", "where did the knife jams happen") is its
        # stops in the rows by place, which the reason filter keeps (docs/shifts-agent.md, rule 2).
        plan = replace(plan, by="place")
    if plan.measure in ("opportunities", "dollars") and (plan.reason or plan.place) and money_asked(q):
        # Money for a named reason or place is that one's cost, not the total of every lever.
        # The address names the reason or place alone (docs/URLS.md): the rows' grouping follows from it.
        plan = replace(plan, measure="named_cost", by=None, lens=None)
    if window != "day" and measure in DAY_ONLY:
        if words.window is None and scope.period != "day":
            return Unavailable(
                f"That is a daily tool; under the {scope.period} control ask for the window form "
                "(for example the downtime pareto or the period KPIs), or switch the Period to Day."
            )
        return Unavailable("That question has no window form; ask about one production day.")
    return _one_shift_alone(_rejects_asked(_share_asked(plan, q), q), scope, words)


# The rows by place asked in so many words ("by machine" is "by place" after the synonyms), or where.
PLACE_ASKED = (
    r"\b(by|per|each|every) (place|location)s?\b|\bwhere\b"
    r"|\b(which|what) places? (had|has|have|got|saw|lost|did|were|was|stopped)\b"
)


# The dry-end rejects said by name or family ("rejects", "up warp", "delam", "the bales").
REJECT_WORDS = (
    r"\b(rejects?|rejected|warp(ed|s)?|bond|delamination|misalign(ment|ed)?|moisture|bales?|dry[- ]end)\b"
)


def reject_share_asked(q: str) -> bool:
    """Whether ``q`` asks for a share of the dry-end rejects ("what share of rejects were warp"), not the
    dry-end waste as a percent of gross ("dry end % on 3rd") nor a share of the downtime."""
    return (
        _has(q, SHARE_WORDS)
        and not _has(q, DRY_END_PCT)
        and _has(q, REJECT_WORDS)
        and not _has(q, r"\b(downtime|down time|stops?|jams?)\b")
    )


def _rejects_asked(plan: Plan, q: str) -> Plan:
    """A share of the rejects, or one reject named, is read on the waste breakdown, on a day or over a
    window: it holds each family's rejected area and each reported reason's, with their shares."""
    if plan.measure in ("quality", "waste") and reject_share_asked(q):
        return replace(plan, measure="waste", ask="share", by=None)
    if plan.measure == "quality" and plan.reject is not None:
        return replace(plan, measure="waste", by=None)
    return plan


def _share_asked(plan: Plan, q: str) -> Plan:
    """A downtime plan asked as a share ("what percent of downtime was operator"): the share is the asked
    figure; a named kind is one of the rows by kind, never a filter that would make it the whole."""
    if plan.measure not in ("downtime", "pareto") or not _has(q, SHARE_WORDS):
        return plan
    plan = replace(plan, ask="share")
    kinds = [k for k in entities(q).kinds if k in ("Maintenance", "Operator", "PM")]
    if len(kinds) == 1 and plan.reason is None and plan.place is None:
        plan = replace(plan, by="kind", kind=kinds[0])
    return plan


def _one_shift_alone(plan: Plan, scope: Scope, words: ScopeWords) -> Plan:
    """One shift named on an every-shift day asks about that shift alone, over a day or a window: the
    include rule's default when a shift is given (docs/shifts-agent.md, "Scope")."""
    one_shift = plan.measure in ONE_SHIFT if plan.window == "day" else plan.shift is not None
    if scope.shift is None and len(words.shifts) == 1 and one_shift:
        return replace(plan, include="shift")
    return plan


def _comparison(
    q: str, base: Plan, scope: Scope, words: ScopeWords, compare_shift: int | None, all_shifts: bool
) -> Plan | Unavailable | None:
    """Two named shifts, every shift side by side, or the shifts or crews of a window compared; ``None``
    when the question compares no shifts or crews."""
    if compare_shift is not None:
        if base.window != "day":
            # Two shifts over a window: the window's shifts side by side, ranked (every shift is read).
            return with_entities(
                replace(base, measure="compare_groups", by="shift", shift=None, include="day"), entities(q)
            )
        return replace(base, measure="compare_shifts", other_shift=compare_shift)
    metric = compared_on(q, rank_metric(q))
    if base.window == "day" and shifts_ranked(q, metric):
        # One day's shifts ranked ("rank the shifts", "which shift had the least downtime yesterday"): the
        # day's rankings over every shift, the shifts ranked on the measure asked first (the scope widens to
        # the production day, which holds them all).
        ask = lead_asked(q, metric, "shift")
        return replace(base, measure="rankings", shift=None, include="day", metric=metric, ask=ask)
    if all_shifts and base.window == "day" and _has(q, COMPARE_SHIFTS):
        return replace(base, measure="compare_shifts", shift=None, include="day")
    group = group_comparison(q, base.window, all_shifts, metric)
    # Ranked on the measure asked ("the worst downtime", "by rejects"); speed to target is the default.
    ranked_on = metric if metric in ("downtime", "quality", "lineal_ft") else None
    if group == "shift" and not words.shifts:
        # Which shift was best: every shift, whatever shift was selected (the scope widens to hold them all).
        shifts = replace(
            base, measure="compare_groups", by="shift", shift=None, include="day", metric=ranked_on
        )
        return with_entities(replace(shifts, ask=lead_asked(q, ranked_on, "shift")), entities(q))
    if group == "crew":
        crews = replace(base, measure="compare_groups", by="crew", metric=ranked_on)
        crews = with_entities(replace(crews, ask=lead_asked(q, ranked_on, "crew")), entities(q))
        return _one_shift_alone(crews, scope, words)
    return None


# A loss held to a limit: the band, flag, target or threshold named, or a percent it is over or under.
BAND_WORDS = (
    r"\b(bands?|flags?|targets?|thresholds?|limits?)\b"
    r"|\b(over|above|under|below|within|inside|more than|less than|exceed(s|ed|ing)?|beyond) (the )?[\d.]+ ?(%|percent)"
)
# Texted with no verb, only its question mark and a limit word ("maint dt ovr the band on 3rd?", "crew b undr
# target this mo?"): a yes or no, on a band or on the target.
TEXTED_VERDICT = (
    r"^(?!.*\b(what|whats|which|how|why|where|when|who|show|give|list)\b)[^?]*"
    r"\b(over|above|under|below|within|past)\b[^?]*\?\s*$"
)
# A verdict asked anywhere in the question: a yes/no opening, "or not", "yes or no", or "so was …".
# A yes/no is asked first, or after a leading clause and its comma ("yesterday on third shift, did …").
VERDICT = (
    r"(^|, )(is|was|did|were|are|does|do|has|have)\b|\byes or no\b|\by/n\b|\bor not\b"
    r"|\b(so|and|but|then) (is|was|were|did|are)\b|" + TEXTED_VERDICT
)


# A count of shifts asked ("how many shifts went over the maint band", "number of shifts under target"): no
# tool counts the shifts past a band or target, so the figure held to it leads and the count is named as not
# applied (planning/accounting.SHIFTS_COUNTED_LINE).
SHIFTS_COUNTED = r"\b(how many|number of|count of|count the|how often did) (\w+ )?shifts\b"


def band_metric(q: str) -> str | None:
    """The loss a question holds to its owner band: maintenance or operator downtime (2.5 % of scheduled
    minutes each) or the dry-end waste (1 % of gross); ``None`` for a loss without a band of its own (trim is
    flagged per setup, planned maintenance has none, both kinds together have two), or a count asked other
    than of the shifts past the band."""
    if not _has(q, BAND_WORDS):
        return None
    if _has(q, r"\bhow many\b|\bnumber of\b|\bhow often\b") and not _has(q, SHIFTS_COUNTED):
        return None
    if _has(q, _SPEED):
        return None  # "did maintenance hurt our speed to target": the target is the speed's
    maintenance = _has(q, r"\bmaintenance\b") and not _has(q, r"\bplanned maintenance\b|\bpm\b|\bscheduled\b")
    operator = _has(q, r"\boperator\b")
    if maintenance != operator:
        return "maintenance_pct" if maintenance else "operator_pct"
    if not maintenance and _has(q, r"\bdry[- ]end\b|\brejects?\b|\brejected\b"):
        return "dry_end_pct"
    return None


def band_verdict(q: str) -> str | None:
    """The yes/no a band question asks: over the band, within it, or none (the tile beside its band)."""
    if not _has(q, VERDICT) or _has(q, SHIFTS_COUNTED):
        return None  # a count of shifts asks no yes or no: the tile is said beside its band
    within = (
        r"\b(under|below|within|inside|less than|in) (the |its |our )?([\d.]+ ?(%|percent)? ?)?"
        r"((maintenance|operator|dry[- ]end) )?(bands?|flags?|targets?|thresholds?|limits?)\b"
    )
    return (
        "within_band"
        if _has(q, within) or _has(q, r"\b(under|below|within|inside|less than) [\d.]+")
        else "over_band"
    )


def rank_metric(q: str) -> str | None:
    """The measure a ranking asks for: speed, downtime or quality (rejects, waste), or ``None``."""
    metric: str | None = None
    if (_has(q, LOSS_WORDS) or _has(q, TIME_LOST)) and not _has(q, r"\bquality|rejects?\b"):
        metric = "downtime"
    if _has(q, r"\bquality\b|\brejects?\b|\bwaste\b"):
        metric = "quality"
    if _has(q, _SPEED):
        metric = "speed"
    return metric


# "Dry end % on 3rd": the dry-end waste as a percent of gross (a KPI), not a share of the rejects.
DRY_END_PCT = (
    r"\bdry[- ]end (%|percent|pct|percentage|rate)(?! of (the )?rejects?\b)"
    # "what % of gross was dry end": the same tile asked the other way round
    r"|(%|\bpercent|\bpct) of (the )?gross\b.*\bdry[- ]end\b|\bdry[- ]end\b.*(%|\bpercent|\bpct) of (the )?gross\b"
)


# A figure held against its flag, band or target ("trim vs the flag") is that figure, not two windows.
AGAINST_LIMIT = r"\b(vs\.?|versus|compared (to|with)|against) (the |its |their |our )?(flags?|bands?|targets?|thresholds?)\b"
# "Do the same for bond", "do that for crew B": a follow-up said as an order, never a yes/no.
YES_NO = r"(^|, )(is|was|did|were|are|does|do(?! (?:the same|that|this|it)\b)|has|have)\b|^(shift \d|(first|second|third) shift|1st|2nd|3rd)\b.*\?"
# A share asked ("what % of downtime", "percentage of rejects"); a figure with its percent sign ("over 1%",
# "the 2.5% target") is a threshold, not a share.
SHARE_WORDS = (
    r"\b(percent|percentage|pct|share|fraction|proportion)\b(?! (target|band|flag))|(?<![\d.])(?<![\d.] )%"
)

# Measures of one production day that read the named shift alone (a trend or a comparison reads others).
ONE_SHIFT = (DAY_ONLY | {"fpm", "volume", "overview", "kpis", "waste"}) - {"compare_shifts", "rankings"}

Intent = tuple[str | Unavailable, dict[str, Any]]


def _intent(q: str, cue: Cue | None, by: str | None, window: Period, words: ScopeWords) -> Intent:
    """The measure asked and its options: a question asked by name first (a yes/no on target, a
    diagnosis, money, a comparison, a trend, a named tool), then the measure its words name."""
    named = _named_intent(q, cue, by, window, words)
    return named if named is not None else _measure_intent(q, cue, by, window)


def _named_intent(
    q: str, cue: Cue | None, by: str | None, window: Period, words: ScopeWords
) -> Intent | None:
    """A question asked by its name or form: a yes/no on target, the diagnosis, money, a setup or speed
    cue, a comparison of windows, a trend, or one of the window tools named; ``None`` otherwise."""
    ranged = window != "day"
    tile = band_metric(q)
    if tile is not None:
        # A loss held to its owner band ("was maint dt over the band", "operator downtime vs the 2.5 %
        # target"): its KPI tile against the band, answered Yes or No first when a verdict is asked.
        return "kpis", {"metric": tile, "ask": band_verdict(q)}
    if _has(q, SHIFTS_COUNTED) and _has(q, r"\btarget\b") and not _has(q, LOSS_WORDS):
        return "fpm", {}  # "how many shifts were under target": the speed to target, the count not applied
    if (_has(q, YES_NO) or _has(q, TEXTED_VERDICT)) and _has(q, r"\btarget\b") and not _has(q, LOSS_WORDS):
        # A loss word ("was waste over target") asks about that loss, never the speed to target; the target
        # it names is said as not applied (planning/accounting).
        # "Is 2nd shift below target?", "did 3rd make target": speed to target, answered Yes or No first.
        below = _has(q, r"\b(below|under|short of|miss(ed)?|behind)\b")
        return "fpm", {"ask": "below_target" if below else "at_target"}
    if _has(q, r"\boverview\b|\bdiagnos(e|is)\b"):
        return "overview", {}  # the diagnosis asked by name, over a day or a window
    if _has(q, r"\bsummari[sz]e\b|\bsummary\b|\bwhy\b.*\bslow"):
        return ("overview" if _has(q, r"\bwhy\b") or not ranged else "kpis"), {}
    if _has(q, PROFIT):
        return ("overview" if not ranged else "opportunities"), ({} if not ranged else {"lens": _lens(q)})
    if _has(q, r"\b(levers?|opportunit(y|ies)|biggest wins?)\b") and not _has(q, r"\bspeed opportunit"):
        return "opportunities", {"lens": _lens(q)}
    if money_asked(q):
        return ("opportunities", {"lens": _lens(q)}) if ranged else ("dollars", {})
    if cue == "setups":
        return ("kpis" if words.window is not None else "setups"), {}
    if cue == "diagnosis":
        return "overview", {}
    if cue == "speed_trend":
        return "trend", {"metric": "speed", "weeks": words.weeks or 8}
    # "This month's rejects against last month": a window against the one before is a comparison too.
    against_before = r"\b(against|than) (the )?(last|previous|prior) (week|month|(fiscal |4-4-5 )?period)\b"
    compared = _has(q, r"\bcompare\b|\bvs\.?\b|\bversus\b|\bcompared\b|" + against_before) and not _has(
        q, AGAINST_LIMIT
    )
    if words.other_anchor is not None or compared:
        if ranged and words.other_anchor is not None:
            return "compare", {"other_anchor": words.other_anchor}
        # Two values of one kind compared ("compare trim on the 95 and 87 inch webs") are those values, read
        # as several values are (the first applied), never this window against the one before.
        named = entities(q)
        two = any(
            len(v) > 1 for v in (named.grades, named.widths, named.reasons, named.places, named.rejects)
        )
        if ranged and cue not in ("speed", "volume") and (not two or _has(q, against_before)):
            # A speed or volume question against the window before runs its own plan, whose KPI tiles
            # already carry the previous window.
            return "compare", {}
    if words.weeks is not None or _has(q, TREND_WORDS):
        return "trend", {"metric": _trend_metric(q, cue), "weeks": words.weeks or 8}
    if _has(q, r"\bover-?runs?\b|\bnominal\b|\bover and under\b"):
        return "overrun", {}
    if _has(q, ROLLSTOCK_ASKED):
        return "rollstock", {}
    if _has(q, r"\bspeed (variance|bridge|gap)\b|\bwhere did (the|our) speed go\b|\blost speed\b"):
        return "variance", {}
    if _has(q, r"\bspeed opportunit|\bbest fifth\b|\bhow fast could\b"):
        return "speed_opportunity", {"by": "crew" if by == "crew" else "width"}
    if _has(q, r"\bdowntime review\b|\b(against|over|above) (the |their |its )?bands?\b"):
        return "review", {}
    if _has(q, r"\bweekdays?\b|\bday of (the )?week\b|\bstops? profile\b|\bper day\b") and _has(
        q, LOSS_WORDS
    ):
        return "stops", {}
    if _has(q, r"\bnotes?\b|\bcrew (say|said|report|reported|wrote)\b|\bwhat did the crew\b"):
        return "notes", {}
    # "Work orders" are maintenance's, which the records do not hold (planning/accounting): never the order matrix.
    if _has(q, r"\border matrix\b|(?<!work )\borders?\b|\bremaining sheets\b|\bsheets (produced|planned)\b"):
        return "orders", {}
    if _has(q, r"\bsetup matrix\b") or (
        cue not in ("speed", "volume") and _has(q, r"\bsetups?\b|\bchangeovers?\b|\bpaper changes?\b")
    ):
        return ("kpis" if words.window is not None else "setups"), {}
    return None


def _measure_intent(q: str, cue: Cue | None, by: str | None, window: Period) -> Intent:
    """The measure the question's words name: rankings, downtime, rejects, waste, speed, volume, a named
    reason or place, the KPIs, a summary, or an honest refusal."""
    ranged = window != "day"
    if _has(q, r"\brank(ing|ings|ed)?\b|\b(worst|best|top|bottom) (\d+ )?(runs|setups)\b") and not (
        ranged and _has(q, RANKED_ROWS)
    ):
        return "rankings", {"metric": rank_metric(q)}
    if _has(q, r"\bpareto\b"):
        return "pareto", {"by": by if by in ("reason", "place", "kind") else "reason", "count": _count(q)}
    if _has(
        q, r"\b(downtime|down time|stops?|stopped|jams?|maintenance|operator|pm|outages?|planned)\b"
    ) or _has(q, LINE_DOWN):
        group = by if by in ("place", "kind") else "reason"
        if ranged:
            # A kind named over a window ("operator downtime this week") is read in the rows by kind,
            # where its own row is the answer; beside rows by reason or place ("maint downtime by place") it
            # filters them, as on a day.
            kind = _kind(q)
            if kind is not None and by is None and not _has(q, r"\b(by|per) (reason|cause)s?\b"):
                return "pareto", {"by": "kind", "kind": kind, "count": _count(q)}
            return "pareto", {"by": group, "kind": kind if by != "kind" else None, "count": _count(q)}
        return "downtime", {"by": group, "kind": _kind(q)}
    if _has(q, DRY_END_PCT):
        return "kpis", {
            "metric": "dry_end_pct"
        }  # the dry-end waste % of gross: a shift's, day's or window's tile
    if _has(
        q, r"\b(quality|rejects?|rejected|warp|bond|delamination|misalignment|moisture|bale|dry[- ]end)\b"
    ):
        if ranged:
            return "waste", {}
        # The day's rejects are broken down by their reason (the reject family); "by reason" says so.
        return "quality", ({"by": "reason"} if _has(q, r"\bby (reason|cause|family)\b") else {})
    if _has(q, r"\b(waste|trim|shear|scrap|yield)\b"):
        return "waste", {}
    if cue == "speed":
        return "fpm", {"by": by if by in ("grade", "width", "crew") else None}
    if cue == "volume":
        return "volume", {"by": "grade" if by == "grade" or ranged else None}
    named = entities(q)
    if named.reasons or named.places:
        # A stop reason or place named with no measure word ("how often did we miss a splice") asks about
        # its downtime.
        group = "place" if named.places else "reason"
        return ("pareto", {"by": group, "count": _count(q)}) if ranged else ("downtime", {"by": group})
    if _has(q, r"\b(kpis?|dashboard|tiles|numbers|scorecard)\b"):
        return "kpis", {}
    if _has(
        q,
        r"\bwhy\b|\bwhat happened\b|\boverview\b|\bsummary\b|\bsummari[sz]e\b|\bhow did (we|it|the shift"
        r"|(the )?(first|1st|second|2nd|third|3rd|day|night|swing|evening) shift|shift (1|2|3|one|two|three))"
        r" (do|go)\b|\bhow was\b|\bhow were\b|\bwhat went wrong\b"
        # "How did last shift go", "how did crew C do": whoever or whatever is named, the diagnosis of it.
        r"|\bhow did (\w+ ){1,4}(do|go|end|finish|look)\b|\bhow'?d (\w+ ){1,4}(do|go)\b"
        # "Anything weird on 3rd?": nothing named, the diagnosis is the nearest reading of what stood out.
        r"|\b(weird|unusual|odd|strange|abnormal|out of the ordinary|stand out|stood out)\b"
        # A handover ("what do I tell the next shift"): what stood out on the selected shift.
        r"|\b(tell|pass on to|hand over to|hand off to|brief|warn) the (next|incoming|oncoming) shift\b",
    ):
        return ("overview" if _has(q, r"\bwhy\b") or not ranged else "kpis"), {}
    return Unavailable("The offline planner does not support that question."), {}


# The rollstock consumed, or paper by weight ("tons of paper"): the weight is not in the records
# (planning/accounting), the rollstock consumed is what they hold of it.
ROLLSTOCK_ASKED = (
    r"\broll ?stock\b|\bpaper (consumed|used|usage|consumption)\b"
    r"|\b(tons?|tonnes?|tonnage|pounds?|lbs?|kilos?|kilograms?|kgs?|weight) (of )?(paper|liner|medium|board)\b"
)


# Rows a window's tool already ranks ("rank the grades by MSF for August", "the top 2 downtime reasons ranked by
# stops"): over a window they are that measure's rows (the grades' volume, the pareto), never the day's rankings.
RANKED_ROWS = r"\b(grades|reasons|causes|places)\b"


# The line or a place said to be down ("was the corrugator down", "hrs down", "the belt went down") is its
# downtime; "going down" (a trend) and "down warp" (a reject) are not.
LINE_DOWN = (
    r"\b(was|were|is|are|been|went|go|goes|gone|being) (the (\w+ ){1,2})?down\b(?! (warp|from|to)\b)"
    r"|\b(hours?|hrs?|minutes?|mins?|time) (was |were |we were |we went )?down\b|\bdown for\b"
    r"|\b(lose|lost|losing) (\w+ ){0,2}time\b|\btime (did )?(we )?(lose|lost)\b"  # "lose the most time"
    r"|\b(hours?|hrs?|minutes?|mins?) (were|was) (we|it|the line) down\b"  # "how many hours were we down"
)


# "Is X getting worse": the weekly trend of X (docs/shifts-agent.md, "Reading").
TREND_WORDS = (
    r"\btrend(s|ing)?\b|\bweekly\b|\bweek by week\b|\bover time\b|\bgetting (worse|better)\b"
    r"|\bworsening\b|\bimproving\b|\b(going|creeping|trending) (up|down)\b|\bon the rise\b"
)


def _count(q: str) -> bool:
    return _has(q, r"\bhow many\b|\bcount\b|\bnumber of\b|\bmost frequent\b|\bmost often\b")


def _kind(q: str) -> str | None:
    if _has(q, r"\bplanned\b|\bpm\b|\bscheduled maintenance\b"):
        return "PM"
    if _has(q, r"\bmaintenance\b"):
        return "Maintenance"
    if _has(q, r"\boperators?\b"):
        return "Operator"
    return None


def _lens(q: str) -> str:
    if _has(q, r"\bsupervisor\b|\bcontrollable\b"):
        return "supervisor"
    if _has(q, r"\bownership\b|\bowner\b|\bcost of waste\b"):
        return "ownership"
    return "all"


def _trend_metric(q: str, cue: Cue | None) -> str:
    if _has(q, r"\bmaintenance\b"):
        return "maintenance_pct"
    if _has(q, r"\boperator\b"):
        return "operator_pct"
    if _has(q, r"\bdowntime|stops?\b"):
        return "downtime_pct"
    if _has(q, r"\btrim\b"):
        return "trim_pct"
    if _has(q, r"\b(quality|dry-end|dry end|waste)\b") or _has(q, REJECT_WORDS):
        return "dry_end_pct"
    if cue == "volume":
        return "lineal_ft"
    return "speed"


# --- follow-ups ------------------------------------------------------------------------------------------

# The groupings each measure's tools break down by (a follow-up's "by X" changes only these).
FOLLOW_BY = {
    "downtime": ("reason", "place", "kind"),
    "pareto": ("reason", "place", "kind"),
    "fpm": ("grade", "width", "crew"),
    "volume": ("grade",),
}


def _follow_up(q: str, words: ScopeWords, scope: Scope, previous: Plan) -> Plan | Unavailable:
    after = previous.address()
    q = follow_said(q)
    if _has(q, r"^compare (that|this|it|with)"):
        if not words.shifts:
            return Unavailable("Name the shift to compare with, e.g. “compare that with first shift”.")
        other = words.shifts[0]
        if previous.window != "day":
            return Unavailable("Shift comparisons run on one production day; choose the Day period.")
        base_shift = previous.shift or scope.shift or 1
        if other == base_shift:
            return Unavailable("That is the same shift; name another shift to compare with.")
        return replace(
            previous,
            measure="compare_shifts",
            shift=base_shift,
            other_shift=other,
            include="day",  # a comparison reads the production day (docs/shifts-agent.md, "Scope")
            after=after,
            chart=False,
            ask=None,  # a yes/no or a share has no meaning on a comparison (docs/URLS.md)
        )
    plan = replace(previous, after=after)
    if len(words.shifts) == 1:
        plan = replace(plan, shift=words.shifts[0])  # one named shift moves the scope (docs/shifts-agent.md)
    if _has(q, BEFORE):
        # "and the week before?": the window (or production day) before the previous answer's.
        before = previous_window(window_for(plan.window, plan.anchor or plan.day))
        plan = replace(plan, day=before.start, anchor=before.start if plan.window != "day" else None)
    elif words.window is not None and words.anchor is not None:
        plan = replace(plan, window=words.window, anchor=words.anchor)
        if plan.measure in DAY_ONLY:
            return Unavailable("That question has no window form; ask about one production day.")
    elif words.day != scope.day:
        plan = replace(plan, day=words.day, anchor=words.day if plan.window == "day" else plan.anchor)
    by = grouping(q)
    if by is not None and by in FOLLOW_BY.get(plan.measure, ()):
        plan = replace(plan, by=by)
    named = entities(q)
    if named != Entities():
        # "and missed splices?", "just knife jams": the named entity replaces the previous one.
        plan = with_entities(
            replace(plan, grade=None, crew=None, reason=None, place=None, width=None, reject=None), named
        )
    if _has(q, _CHART):
        plan = replace(plan, chart=True)
    if plan.measure == "downtime" and plan.by != "kind" and len(entities(q).kinds) == 1:
        plan = replace(plan, kind=_kind(q))  # "now just maintenance": the day's downtime of that kind
    if plan.measure in ("downtime", "pareto") and _has(q, SHARE_WORDS):
        plan = replace(plan, ask="share")  # "what percent of that was knife jams"
    if plan == replace(previous, after=after):
        return Unavailable("The follow-up did not change the shift, day, window, grouping or chart.")
    return plan
