"""What the /shifts page says of the scope and the records: the example questions and the period
control, a shift's hours, a window's and the scope's line, which days the records hold, the notice for a
day without records, the controls' values and the reset and KPI addresses."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words
from shopfloor.shifts.planning.plans import AddressError, parse_address
from shopfloor.shifts.plant.calendar import Window, window_for
from shopfloor.shifts.plant.catalog import SHIFT_MINUTES, SHIFT_STARTS
from shopfloor.shifts.plant.scope import Scope

# The reference's example questions, in its order (the page's buttons). "Compare all shifts" also
# switches the include control to every shift. A button sends the English question (what the reader reads)
# and shows it in the page's language; an answer to one shows the question as its button did.
EXAMPLES: tuple[str, ...] = (
    N_("Why was this shift slow? Chart downtime by reason."),
    N_("Compare all shifts"),
    N_("Show downtime by equipment"),
    N_("Was it maintenance or operator downtime?"),
    N_("Summarize performance, downtime and waste. Show supporting charts."),
    N_("Show orders and quantities"),
    N_("Show speed to target"),
    N_("Show setup matrix"),
    N_("Show rankings"),
    N_("Show shift and downtime notes"),
    N_("Show dry-end quality waste"),
    N_("How can we improve profit on this shift?"),
    N_("Please investigate the stopping causes"),
)


DAY_SCOPE_EXAMPLES = frozenset({"Compare all shifts"})


PLACEHOLDER = N_("Which equipment caused the most downtime?")


PERIODS = (("day", N_("Day")), ("week", N_("Week")), ("month", N_("Month")), ("fiscal", N_("4-4-5 period")))


def shift_hours(shift: int) -> str:
    """A shift's clock hours, "15:00–23:00"."""
    start = datetime.combine(date(2026, 1, 1), SHIFT_STARTS[shift])
    end = start + timedelta(minutes=SHIFT_MINUTES)
    return f"{start:%H:%M}–{end:%H:%M}"


def window_label(window: Window, words: Words = ENGLISH) -> str:
    """A window as the page names it: "Week of 2026-09-14 (Mon–Fri)", "September 2026", "4-4-5 P1 FY2026
    (4 weeks)", in the page's language."""
    if window.period == "day":
        return words.day(window.start)
    if window.period == "week":
        return words._("Week of {day} (Mon–Fri)").format(day=window.start.isoformat())
    if window.period == "month":
        return words.month(window.start)
    weeks = ((window.end - window.start).days + 1) // 7
    return words.ngettext(
        "4-4-5 P{period} FY{year} ({n} week)",
        "4-4-5 P{period} FY{year} ({n} weeks)",
        weeks,
        period=window.fiscal_period,
        year=window.fiscal_year,
    )


def scope_line(day: date, shift: int | None, include: str, period: str, words: Words = ENGLISH) -> str:
    """The live scope line: "Mon 2026-09-14 · 15:00–23:00 · shift 2 only"."""
    where = words.day(day) if period == "day" else window_label(window_for(period, day), words)  # type: ignore[arg-type]
    if shift is None:
        return words._("{where} · every shift").format(where=where)
    if include == "day":
        return words._("{where} · shift {shift} selected · every shift of the day").format(
            where=where, shift=shift
        )
    return words._("{where} · {hours} · shift {shift} only").format(
        where=where, hours=shift_hours(shift), shift=shift
    )


def window_of(window: Mapping[str, Any], words: Words) -> str:
    """A result's window (its ``as_dict()``) named in the page's language; its own label otherwise."""
    try:
        period, start = window["period"], date.fromisoformat(window["start"])
    except (KeyError, TypeError, ValueError):
        return str(window.get("label", ""))
    if period == "day":
        return words.day(start)
    return window_label(window_for(period, start), words)


def records_line(days: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """Which days the records hold, on the first screen: "Records: Mon 2026-09-07 – Mon 2026-09-21,
    11 production days, Mon–Fri" (``days``: the record store's span, ``work.days``)."""
    first, last = date.fromisoformat(days["first"]), date.fromisoformat(days["last"])
    count = int(days.get("count") or 0)
    line = words.ngettext(
        "Records: {first} – {last}, {n} production day",
        "Records: {first} – {last}, {n} production days",
        count,
        first=words.day(first),
        last=words.day(last),
    )
    if days.get("weekdays_only"):
        line += ", " + words._("Mon–Fri")
    return line


def nearest_day(day: date, held: list[str]) -> date | None:
    """The production day in the records nearest ``day`` (the earlier of two as near), or None if none."""
    days = [date.fromisoformat(d) for d in held]
    if not days:
        return None
    return min(days, key=lambda d: (abs((d - day).days), d > day))


def day_notice(
    scope: Scope, days: Mapping[str, Any], root: str = "", words: Words = ENGLISH
) -> dict[str, Any] | None:
    """What the page says when the chosen production day has no records, in words (never a tool's error): a
    weekend is not a production day; a day outside the records or missing from them has none; with a link to
    the nearest production day the records hold, in the same shift and include."""
    held = days.get("held")
    if scope.period != "day" or held is None or scope.day.isoformat() in held:
        return None
    nearest = nearest_day(scope.day, held)
    if scope.day.weekday() >= 5:
        text = words._("{day} is not a production day: the plant runs Monday to Friday.")
    elif not scope.day.isoformat() >= days["first"] or not scope.day.isoformat() <= days["last"]:
        text = words._("The records hold no {day}: they run from {first} to {last}.")
    else:
        text = words._("The records hold no {day}: that production day is missing.")
    text = text.format(
        day=words.day(scope.day),
        first=words.day(date.fromisoformat(days["first"])),
        last=words.day(date.fromisoformat(days["last"])),
    )
    if nearest is None:
        return {"text": text, "href": None, "link": None}
    target = Scope(day=nearest, shift=scope.shift, include=scope.include, period="day")
    return {
        "text": text,
        "lead": words._("The nearest production day in the records:"),
        "link": words.day(nearest),
        "href": reset_href(target, root),
    }


def weekday_names(words: Words = ENGLISH) -> list[str]:
    """Monday to Friday, abbreviated in the page's language (the heatmap's head)."""
    monday = date(2026, 9, 14)
    return [words.day(monday + timedelta(days=i)).split(" ")[0] for i in range(5)]


def scope_text(scope: Scope, words: Words = ENGLISH) -> str:
    """The scope line of a parsed scope."""
    return scope_line(scope.day, scope.shift, scope.include, scope.period, words)


def kpis_address(scope: Scope) -> str | None:
    """The address of the KPI tiles for ``scope`` (the cards when the answer has none of its own)."""
    if scope.period == "day":
        text = f"/a?day={scope.day.isoformat()}"
    else:
        text = f"/a?window={scope.period}&anchor={scope.day.isoformat()}"
    if scope.shift is not None:
        text += f"&shift={scope.shift}" + ("&include=day" if scope.include == "day" else "")
    try:
        return parse_address(text + "&measure=kpis").address()
    except AddressError:
        return None


def form_state(scope: Scope, question: str, address: str | None) -> dict[str, Any]:
    """The controls' values as the page shows them (``after``: the answer a follow-up refers to)."""
    return {
        "day": scope.day.isoformat(),
        "shift": scope.shift,
        "include": scope.include,
        "period": scope.period,
        "question": question,
        "after": address,
    }


def reset_href(scope: Scope, root: str = "") -> str:
    """The reset control: the same scope, no question, no follow-up chain (``root``: the app's mount path)."""
    params = {"day": scope.day.isoformat(), "period": scope.period, "include": scope.include}
    if scope.shift is not None:
        params["shift"] = str(scope.shift)
    else:
        params["shift"] = ""
    return root + "/?" + urlencode(params)
