"""Whether a question compares the shifts or the crews, and in what scope (docs/shifts-agent.md, "Comparisons
over a window", "Reading"): one day's shifts ranked, the shifts or crews of a window side by side. Pure text,
split out of the router (planning/router.py) by responsibility; the router builds the plan."""

from __future__ import annotations

from typing import Literal

from shopfloor.shifts.planning.scope_words import has
from shopfloor.shifts.plant.calendar import Period

# "Rank the shifts", "shifts ranked by speed": the shifts ranked against each other.
RANK_SHIFTS = r"\brank(s|ed|ing)?\b.*\bshifts\b|\bshifts\b.*\branked\b"
# "Which shift was best last week", "worst shift this month": the shifts over a window side by side.
_BEST_SHIFT = (
    r"\bwhich shift\b.*\b(best|worst|slowest|fastest)\b|\b(best|worst|slowest|fastest)( [23]| two| three)? shifts?\b"
    r"|\b(top|bottom)( [23]| two| three) shifts\b"  # "bottom 2 shifts in april": ranked, the 2 named
    r"|\bshifts? (was|were|is|are) (the )?(best|worst)\b"
    r"|\b(rank|compare) (the |all )?shifts\b"
)
# "Which shift had the least downtime", "which shift had the highest speed": a superlative asks the shifts
# ranked, on the loss or the speed it names (a measure the shifts are ranked on: speed to target, unplanned
# downtime, dry-end waste). On a loss only the least is read so, the best shift leading a loss's ranking;
# speed's highest or lowest, its headline naming both ends ("lost the most speed" stays each shift's speed).
_WHICH_SHIFT = r"\b(which|what) shift\b.*"
SHIFT_LEAST = _WHICH_SHIFT + r"\b(least|fewest|lowest|smallest)\b"
SHIFT_SPEED_END = _WHICH_SHIFT + r"\b(highest|lowest)\b"
# "Which shift had the most downtime", "what shift lost the most time", "which shift made the most board": the
# shifts compared on that measure, the one asked for leading (the most of a loss is the worst shift on it; the
# most board, the highest lineal feet). Said in the plan's ``ask`` (docs/URLS.md): ``most`` or ``least``.
MOST = r"\b(most|highest|largest|biggest|greatest)\b"
LEAST = r"\b(least|fewest|lowest|smallest|less)\b"
SHIFT_MOST = _WHICH_SHIFT + MOST
_WHICH_GROUP = r"\b(which|what) (shift|crew)s?\b"
# Time lost asked without a loss word ("lost the most time", "the most minutes lost"): the downtime.
TIME_LOST = r"\blos[te]s? (the )?(most|least|less|more) (time|minutes|hours)\b|\b(most|least) (time|minutes|hours) lost\b"
# The board made ("made the most board", "ran the most footage"): the lineal feet the groups ran.
BOARD_MADE = (
    r"\b(made|make|ran|run|produced|put out)\b.*\b(board|footage|feet|volume|output|msf)\b"
    r"|\b(most|least|highest|lowest) (board|footage|feet|lineal feet|volume|output|throughput|msf)\b"
)
# "Which crew was slowest", "compare crews this month": the crews over a window side by side.
_CREW_COMPARE = (
    r"\bcompare\b|\bcompared\b|\bvs\.?\b|\bversus\b|\bwhich crew\b|\b(best|worst|slowest|fastest)\b"
    r"|\brank|\bside by side\b|\b(top|bottom)( [23]| two| three)? crews\b|\bwhich( [23]| two| three) crews\b"
)
ALL_SHIFTS = r"\ball (the |three |3 )?shifts\b|\bevery shift\b|\beach shift\b|\bthe shifts\b"
COMPARE_SHIFTS = (
    r"\bcompare\b|\bvs\.?\b|\bversus\b|\bbest\b|\bworst\b|\brank\b|\bwhich shift\b|\bside by side\b"
)
_RUNS = r"\b(runs?|setups?)\b"  # "rank the runs", "worst setups": the setups ranked, never the shifts


def shifts_ranked(q: str, metric: str | None) -> bool:
    """Whether ``q`` asks the shifts ranked against each other: "rank the shifts", or which shift had the most
    or least of ``metric`` (the measure the ranking is asked on, from the router's ``rank_metric``)."""
    if has(q, _RUNS):
        return False
    if has(q, RANK_SHIFTS):
        return True
    if metric == "speed":
        return has(q, SHIFT_SPEED_END)
    if metric == "lineal_ft":
        return has(q, SHIFT_MOST) or has(q, SHIFT_LEAST)
    return metric in ("downtime", "quality") and (has(q, SHIFT_LEAST) or has(q, SHIFT_MOST))


def compared_on(q: str, metric: str | None) -> str | None:
    """The measure a which-shift or which-crew question compares the groups on: ``metric`` (the router's
    ``rank_metric``), or the lineal feet when it asks who made the most or the least board."""
    if metric is None and has(q, _WHICH_GROUP) and has(q, BOARD_MADE) and (has(q, MOST) or has(q, LEAST)):
        return "lineal_ft"
    return metric


def lead_asked(q: str, metric: str | None, group: str) -> str | None:
    """The end a which-shift or which-crew question asks of ``metric`` when it is not the comparison's own
    lead: ``most`` (the highest figure) or ``least`` (the lowest). On a loss the shifts lead with the least
    (the best shift) and the crews with the most (the worst crew), so only the other end is said; on the
    lineal feet either end is (docs/URLS.md, ``ask``). Speed names both ends: ``None``."""
    if metric not in ("downtime", "quality", "lineal_ft") or not has(q, _WHICH_GROUP):
        return None
    end = "most" if has(q, MOST) else ("least" if has(q, LEAST) else None)
    own = None if metric == "lineal_ft" else ("least" if group == "shift" else "most")
    return None if end == own else end


def group_comparison(
    q: str, window: Period, all_shifts: bool, metric: str | None = None
) -> Literal["shift", "crew"] | None:
    """Whether the question compares the shifts over a window (best and worst shift) or the crews; ``metric``
    is the measure a ranking is asked on."""
    if has(q, r"\bcrews?\b") and has(q, _CREW_COMPARE) and not has(q, r"\bnotes?\b|\bsaid\b|\bsay\b"):
        return "crew"
    asked = has(q, _BEST_SHIFT) or shifts_ranked(q, metric) or (all_shifts and has(q, COMPARE_SHIFTS))
    if window != "day" and asked:
        return "shift"
    return None
