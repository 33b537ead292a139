"""A comparison's headline and its side-by-side table, from one ``get_group_comparison`` result (the shifts of
a day or of a window, or the crews of a window; docs/shifts-agent.md, "Comparisons").

The headline says which group was best and which worst on the measure compared, speed to target (the tool
ranks on it, highest best), and by how much: the tool's ``points_behind_best`` of the worst row. The table is
a ``comparison`` section: one column per group (in its own order, shift 1 before shift 3), one row per
measure, each cell the figure of that group's row with the word ``best``, ``worst`` or ``level`` when the
window is ranked. Choosing the ends of a row compares the figures as shown; no figure is computed here.

The section is data (``columns``, ``rows``, each cell a figure part) beside its ``text``, which writes every
figure in bold with its citation, one line per measure, for the evals, the JSON and the terminal. The page and
the PDF draw the table from the data, never from the text.
"""

from __future__ import annotations

from typing import Any

from shopfloor.shifts.answers.findings import Citation, Figure, Part, Section, fmt, said

# The table's rows: (row field, label, unit, which end is better; None: no end is named).
MEASURES: tuple[tuple[str, str, str, str | None], ...] = (
    ("speed_to_target_pct", "Speed to target", "%", "higher"),
    ("shift_fpm", "Shift speed", "ft/min", "higher"),
    ("unplanned_downtime_pct", "Unplanned downtime", "%", "lower"),
    ("dry_end_pct", "Dry-end waste", "%", "lower"),
    ("trim_pct", "Side trim", "%", "lower"),
    ("stops", "Stops", "stops", "lower"),
    ("lineal_ft", "Lineal feet", "ft", "higher"),
    ("shifts_run", "Shifts run", "shifts", None),
)
COMPARED = "speed_to_target_pct"  # the measure the tool ranks on, which the headline compares
# Counted measures: compared only between groups that ran as many shifts (a crew's feet over 12 shifts
# against another's over 15 says how often each ran, not how well).
COUNTED = ("stops", "lineal_ft")
WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def _key(row: dict[str, Any], group_by: str) -> str:
    """A group's name inside a sentence: "shift 3", "crew B"."""
    return f"{group_by} {row.get(group_by)}"


def _joined(names: list[str]) -> str:
    """Names as a sentence lists them: "shift 1", "shift 1 and shift 3", "shift 1, shift 2 and shift 3"."""
    return names[0] if len(names) < 2 else f"{', '.join(names[:-1])} and {names[-1]}"


def _figure(unit: str, value: Any) -> Figure:
    if unit in ("stops", "shifts") and value is not None:
        return Figure(value, unit[:-1] if value == 1 else unit)
    return Figure(value, unit)


def _shown(unit: str, value: Any) -> str:
    """A figure as the answer shows it (what "level" and the ends compare)."""
    return fmt(value, _figure(unit, value).unit)


def _ends(values: list[Any], shown: list[str], better: str | None) -> list[str | None]:
    """Each cell's end of its row: ``best``, ``worst``, ``level`` (every figure the same), or None."""
    known = [i for i, v in enumerate(values) if v is not None]
    if better is None or len(known) < 2:
        return [None] * len(values)
    if len({shown[i] for i in known}) == 1:
        return ["level" if i in known else None for i in range(len(values))]
    order = sorted(known, key=lambda i: values[i], reverse=better == "higher")
    top, bottom = shown[order[0]], shown[order[-1]]
    return [
        None if v is None else "best" if shown[i] == top else "worst" if shown[i] == bottom else None
        for i, v in enumerate(values)
    ]


def side_by_side(env: dict[str, Any]) -> Section | None:
    """The ``comparison`` section of a group comparison's rows, or None with fewer than two groups."""
    rows = env["rows"]
    if len(rows) < 2:
        return None
    q = env["query"]
    group_by = env.get("group_by", "shift")
    ranked = bool(env.get("ranked")) and (env.get("coverage") or {}).get("status") == "complete"
    window = env.get("window") or {}
    day = window.get("period") == "day"
    # Columns in the groups' own order (shift 1 before shift 3), each citing its row of the result.
    order = sorted(range(len(rows)), key=lambda i: str(rows[i].get(group_by)))
    columns = [
        {"group": rows[i]["group"], "key": rows[i].get(group_by), "query": q, "row": i + 1} for i in order
    ]
    same_shifts = len({rows[i].get("shifts_run") for i in order}) == 1
    table: list[dict[str, Any]] = []
    pieces: list[Part] = []
    names = _joined([c["group"] for c in columns])
    pieces.append(f"{names} side by side, {window.get('label', 'the window')}")
    for field, label, unit, better in MEASURES:
        if field == "shifts_run" and day:
            continue  # a day's group is its one shift
        if field not in rows[0]:
            continue
        values = [rows[i].get(field) for i in order]
        shown = [_shown(unit, v) for v in values]
        judged = better if ranked and (same_shifts or field not in COUNTED) else None
        ends = _ends(values, shown, judged)
        cells = []
        pieces.append(f"\n- {label}" + (f" ({better} is better)" if judged else "") + ":")
        for n, (i, value, end) in enumerate(zip(order, values, ends, strict=True)):
            figure = _figure(unit, value)
            cells.append({**figure.as_part(), "end": end})
            pieces += [f"{';' if n else ''} {rows[i]['group']} ", figure, " ", Citation(q, i)]
            if end:
                pieces.append(f", {end}")
        table.append({"measure": field, "label": label, "better": judged, "cells": cells})
    section = said("comparison", *pieces)
    return {
        **section,
        "group_by": group_by,
        "window": window,
        "ranked": ranked,
        "compared": COMPARED,
        "columns": columns,
        "rows": table,
    }


def ranked_headline(env: dict[str, Any]) -> Section | None:
    """Which group was best and which worst on speed to target, and by how many points, on a ranked result
    with two or more ranked groups; None otherwise. The section carries what it says as data too
    (``comparison``: the form of the sentence, the two ends, the gap, the groups level with the best), from
    which a page in another language says the same sentence."""
    rows = env["rows"]
    ranked = [i for i, r in enumerate(rows) if r.get("rank") is not None]
    if not env.get("ranked") or len(ranked) < 2:
        return None
    q = env["query"]
    group_by = env.get("group_by", "shift")
    window = env.get("window") or {}
    b, w = ranked[0], ranked[-1]
    best, worst = rows[b], rows[w]
    gap = worst.get("points_behind_best")
    if gap is None:
        return None
    level = [rows[i] for i in ranked[1:] if rows[i].get("points_behind_best") == 0]
    high, low = Figure(best["speed_to_target_pct"], "%"), Figure(worst["speed_to_target_pct"], "%")
    behind = Figure(gap, "point" if gap == 1 else "points")
    day = window.get("period") == "day"
    form = (
        "level"
        if gap == 0
        else "slowest"
        if group_by == "crew"
        else "better"
        if day and len(ranked) == 2
        else "best"
    )
    data = {
        "form": form,
        "group_by": group_by,
        "window": window,
        "groups": len(rows),
        "best": {"key": best.get(group_by), **high.as_part(), **Citation(q, b).as_part()},
        "worst": {"key": worst.get(group_by), **low.as_part(), **Citation(q, w).as_part()},
        "gap": behind.as_part(),
        "level": [r.get(group_by) for r in level],
        "keys": [rows[i].get(group_by) for i in ranked],
    }
    return {**_sentence(data, rows, ranked, (high, low, behind), (b, w), q), "comparison": data}


def _sentence(
    data: dict[str, Any],
    rows: list[dict[str, Any]],
    ranked: list[int],
    figures: tuple[Figure, Figure, Figure],
    ends: tuple[int, int],
    q: int,
) -> Section:
    """The headline's English sentence in the form ``data`` says."""
    group_by, window = data["group_by"], data["window"]
    (high, low, behind), (b, w) = figures, ends
    best, worst = rows[b], rows[w]
    level = [_key(r, group_by) for r in rows if r.get(group_by) in data["level"]]
    also = f", level with {_joined(level)}" if level else ""
    stat = " speed to target "
    if data["form"] == "level":
        # Every ranked group level with the best: no end to name.
        names = _joined([_key(rows[i], group_by) for i in ranked])
        return said(
            "headline",
            f"The {group_by}s were level on speed to target: {names} each ran ",
            high,
            " ",
            Citation(q, b),
            ".",
        )
    if data["form"] == "slowest":
        # "Which crew was slowest": the slowest leads, the best follows.
        return said(
            "headline",
            f"{worst['group']} was the slowest crew of the window at ",
            low,
            f"{stat.rstrip()}, ",
            behind,
            " below the best ",
            Citation(q, w),
            f"; {_key(best, group_by)} was the best at ",
            high,
            f"{also} ",
            Citation(q, b),
            ".",
        )
    if data["form"] == "better":
        return said(
            "headline",
            f"{best['group']} was better than {_key(worst, group_by)} on {window.get('label')}: ",
            high,
            stat,
            Citation(q, b),
            " against ",
            low,
            ", ",
            behind,
            " lower ",
            Citation(q, w),
            ".",
        )
    where = (
        f"of the {WORDS.get(len(rows), str(len(rows)))} {group_by}s on {window.get('label')}"
        if window.get("period") == "day"
        else f"{group_by} of the window"
    )
    return said(
        "headline",
        f"{best['group']} was the best {where} at ",
        high,
        stat,
        Citation(q, b),
        f"{also}; {_key(worst, group_by)} was the worst at ",
        low,
        ", ",
        behind,
        " lower ",
        Citation(q, w),
        ".",
    )
