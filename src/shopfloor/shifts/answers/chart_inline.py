"""The page's charts as inline SVG elements (docs/shifts-agent.md, "The page"): drawn as markup the page's
stylesheet styles, so the text stays readable on a phone, the chart compresses with the page and a screen
reader gets its title and description. The PDF keeps the image renderer (``chart_image``).

The spec's points are drawn as they are (no number is computed here but each bar's length and position). A
bar chart is one row per point, its label on a line of its own above its bar, so labels never overlap
whatever their number or length; a line chart labels at most as many days as fit side by side. Every text
is 13 units in a 360-unit-wide drawing: at least 11 CSS pixels where the drawing is 305 pixels wide or more
(a 390-pixel phone shows it about 324 wide).
"""

from __future__ import annotations

import html
from typing import Any

WIDTH = 360
FONT = 13
# An upper bound of a character's advance at the chart's font size, for fitting labels (system-ui sans).
CHAR = 7.6
ROW = 40  # a bar's row: its label line, then its bar
BAR = 14
LABEL_CHARS = int((WIDTH - 4) // CHAR)


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _q(text: str) -> str:
    return f'"{_esc(text)}"'


def _figure(value: float) -> str:
    return f"{value:,.2f}".rstrip("0").rstrip(".") if not float(value).is_integer() else f"{value:,.0f}"


def _fit(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: max(chars - 1, 1)] + "…"


def description(chart: dict[str, Any], limit: int = 12) -> str:
    """The chart's points in words, its accessible description: "Knife jam 20, Paper break 6.2"."""
    points = chart["points"]
    said = ", ".join(f"{p['x']} {_figure(float(p['y']))}" for p in points[:limit])
    return said + (" …" if len(points) > limit else "")


def chart_inline(chart: dict[str, Any], ident: str, lang: str | None = None) -> str:
    """The chart as one ``<svg>`` element whose ``<title>`` and ``<desc>`` name it (``ident``: unique in the
    page, the start of its ids; ``lang``: the title's language when it is not the points' English); no style
    attribute and no script."""
    body, height = (_line if chart["kind"] == "line" else _bars)(chart)
    return (
        f'<svg class="chart-svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'role="img" aria-labelledby="{ident}-t {ident}-d" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t"{f" lang={_q(lang)}" if lang else ""}>{_esc(chart["title"])}</title><desc id="{ident}-d">{_esc(description(chart))}</desc>'
        f"{body}</svg>"
    )


def _bars(chart: dict[str, Any]) -> tuple[str, int]:
    points = chart["points"]
    values = [float(p["y"]) for p in points]
    low, high = min([0.0, *values]), max([0.0, *values])
    texts = [_figure(v) for v in values]
    # The bars leave room at their end for the longest figure.
    room = WIDTH - 4 - (max((len(t) for t in texts), default=1) + 1) * CHAR
    span = (high - low) or 1.0
    zero = 2 + room * (0 - low) / span
    out = []
    for i, (point, value, text) in enumerate(zip(points, values, texts, strict=True)):
        top = i * ROW
        length = room * abs(value) / span
        x = zero if value >= 0 else zero - length
        label = _esc(_fit(str(point["x"]), LABEL_CHARS))
        out.append(
            f'<g class="bar-row"><title>{_esc(point["x"])}: {_esc(text)}</title>'
            f'<text class="label" x="2" y="{top + FONT}">{label}</text>'
            f'<rect class="bar" x="{x:.1f}" y="{top + FONT + 4}" width="{max(length, 1):.1f}" height="{BAR}"/>'
            f'<text class="value" x="{max(zero, x + length) + 4:.1f}" y="{top + FONT + 4 + BAR - 2}">{_esc(text)}</text></g>'
        )
    return "".join(out), max(len(points), 1) * ROW


def _line(chart: dict[str, Any]) -> tuple[str, int]:
    points = chart["points"]
    values = [float(p["y"]) for p in points]
    labels = [str(p["x"]) for p in points]
    # Days of one year are written month-day: shorter labels, more of them fit.
    if labels and all(len(x) == 10 and x[4] == "-" and x[:4] == labels[0][:4] for x in labels):
        labels = [x[5:] for x in labels]
    low, high = min([0.0, *values]), max([0.0, *values])
    ticks = [low + (high - low) * k / 3 for k in range(4)]
    tick_texts = [_figure(round(t, 2)) for t in ticks]
    left = 4 + max(len(t) for t in tick_texts) * CHAR
    top, plot_h = FONT, 150
    bottom = top + plot_h
    right = WIDTH - 4 - CHAR * max((len(x) for x in labels[-1:]), default=1) / 2
    span = (high - low) or 1.0
    step = (right - left) / max(len(points) - 1, 1)

    def y_of(v: float) -> float:
        return bottom - plot_h * (v - low) / span

    out = []
    for value, text in zip(ticks, tick_texts, strict=True):
        y = y_of(value)
        out.append(f'<line class="grid" x1="{left:.1f}" x2="{right:.1f}" y1="{y:.1f}" y2="{y:.1f}"/>')
        out.append(
            f'<text class="tick" x="{left - 4:.1f}" y="{y + 4:.1f}" text-anchor="end">{_esc(text)}</text>'
        )
    xs = [left + step * i for i in range(len(points))]
    if len(points) > 1:
        joined = " ".join(f"{x:.1f},{y_of(v):.1f}" for x, v in zip(xs, values, strict=True))
        out.append(f'<polyline class="line" points="{joined}"/>')
    for x, value, point in zip(xs, values, points, strict=True):
        out.append(
            f'<circle class="dot" cx="{x:.1f}" cy="{y_of(value):.1f}" r="3">'
            f"<title>{_esc(point['x'])}: {_esc(_figure(value))}</title></circle>"
        )
    # As many x labels as fit side by side, evenly spaced, the first and the last among them.
    widest = max((len(x) for x in labels), default=1) * CHAR + 8
    fit = max(int((right - left) // widest) + 1, 1)
    every = max(-(-len(points) // fit), 1) if len(points) > fit else 1
    for i in range(0, len(points), every):
        out.append(
            f'<text class="tick" x="{xs[i]:.1f}" y="{bottom + FONT + 12}" text-anchor="middle">{_esc(labels[i])}</text>'
        )
    return "".join(out), bottom + FONT + 16
