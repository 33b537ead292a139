"""The application-owned scope of a question: production day, selected shift, include rule, Period control.

The scope is never an argument a planner or a model chooses (docs/shifts-agent.md, "Scope"). Each face reads
it from its own input with :meth:`Scope.parse` and maps :class:`ScopeError` to its own error: the CLI to a
bad-parameter exit, the HTTP routes to the ``bad_scope`` envelope.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, get_args

from shopfloor.shifts.plant.calendar import FIRST_DAY, LAST_DAY, PERIODS, Period, in_calendar

Include = Literal["shift", "day"]
INCLUDES: tuple[str, ...] = get_args(Include)
SHIFTS = (1, 2, 3)


class ScopeError(ValueError):
    """A scope field outside its rule: ``option`` names the field, ``reason`` says what it must be."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option} {reason}")
        self.option = option
        self.reason = reason


@dataclass(frozen=True)
class Scope:
    """The application-owned scope: production day, selected shift, include rule and the Period control."""

    day: date
    shift: int | None = None
    include: Include = "day"
    period: Period = "day"

    def __post_init__(self) -> None:
        if self.shift is not None and self.shift not in SHIFTS:
            raise ScopeError("shift", "must be 1, 2 or 3")
        if self.include == "shift" and self.shift is None:
            raise ScopeError("the selected-shift scope", "needs a shift")
        if self.period not in PERIODS:
            raise ScopeError("period", f"must be one of {', '.join(PERIODS)}")

    @classmethod
    def parse(
        cls, day: str, shift: int | None = None, include: str | None = None, period: str = "day"
    ) -> Scope:
        """The scope a face was given as text: a day ``YYYY-MM-DD``, an optional shift, include and period.

        ``include`` defaults to the selected shift when a shift is given, else the whole day. Raises
        :class:`ScopeError` naming the first field outside its rule."""
        try:
            the_day = date.fromisoformat(day)
        except ValueError:
            raise ScopeError("day", "must be a date (YYYY-MM-DD)") from None
        if not in_calendar(the_day):
            raise ScopeError("day", f"must be between {FIRST_DAY} and {LAST_DAY}")
        if shift is not None and shift not in SHIFTS:
            raise ScopeError("shift", "must be 1, 2 or 3")
        if period not in PERIODS:
            raise ScopeError("period", f"must be one of {', '.join(PERIODS)}")
        chosen = include or ("shift" if shift is not None else "day")
        if chosen not in INCLUDES:
            raise ScopeError("include", "must be shift or day")
        if chosen == "shift" and shift is None:
            raise ScopeError("include", "shift needs a shift")
        return cls(day=the_day, shift=shift, include=_include(chosen), period=_period(period))

    def as_dict(self) -> dict[str, Any]:
        """The JSON form an answer carries."""
        return {
            "day": self.day.isoformat(),
            "shift": self.shift,
            "include": self.include,
            "period": self.period,
        }


def _include(value: str) -> Include:
    return "shift" if value == "shift" else "day"


def _period(value: str) -> Period:
    for period in PERIODS:
        if period == value:
            return period
    raise ScopeError("period", f"must be one of {', '.join(PERIODS)}")
