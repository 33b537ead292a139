"""One renderer for a validated chart spec: SVG for the page, a high-resolution PNG for the PDF.

The spec's points are drawn as they are (no number is computed here); a bar chart keeps the tool's row order,
a line chart joins the points in that order. Rendering is deterministic for a given spec, so a drawn chart
is kept by its spec and drawn once; drawing is serialized because matplotlib's text layout and font cache
are shared by the whole process (docs/shifts-agent.md, "Speed").
"""

from __future__ import annotations

import html
import io
import json
import re
import threading
from collections import OrderedDict
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display on a server; must precede pyplot's first import

from matplotlib.figure import Figure

WIDTH_IN, HEIGHT_IN, DPI = 6.4, 3.0, 110
PDF_DPI = 220
_DRAW = threading.Lock()
_KEPT: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_KEEP = 512
_SVG_HEAD = re.compile(r"^.*?(<svg\b)", re.S)


def chart_figure(chart: dict[str, Any]) -> Figure:
    """A matplotlib figure for ``chart`` (``kind`` bar or line, ``points`` of x, y)."""
    labels = [str(p["x"]) for p in chart["points"]]
    values = [float(p["y"]) for p in chart["points"]]
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    ax = fig.add_subplot()
    positions = list(range(len(values)))
    if chart["kind"] == "line":
        ax.plot(positions, values, marker="o", color="#1f5f8b")
    else:
        ax.bar(positions, values, color="#1f5f8b")
    ax.set_xticks(
        positions, labels, rotation=30 if len(labels) > 6 else 0, ha="right" if len(labels) > 6 else "center"
    )
    ax.set_title(chart["title"], fontsize=10)
    ax.set_ylabel(str(chart["y"]).replace("_", " "), fontsize=8)
    ax.tick_params(labelsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def _spec_key(chart: dict[str, Any]) -> str:
    drawn = {k: chart.get(k) for k in ("kind", "title", "x", "y")}
    drawn["points"] = [(str(p["x"]), float(p["y"])) for p in chart["points"]]
    return json.dumps(drawn, sort_keys=True)


def _drawn(chart: dict[str, Any], form: str) -> bytes:
    key = (form, _spec_key(chart))
    with _DRAW:
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
            return kept
        buffer = io.BytesIO()
        fig = chart_figure(chart)
        if form == "svg":
            # Fixed ids and no date: the same spec always gives the same bytes.
            with matplotlib.rc_context({"svg.hashsalt": "shopfloor", "svg.fonttype": "path"}):
                fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
        else:
            dpi = PDF_DPI if form == "png-pdf" else DPI
            # No timestamps or software tags in the file, so the same spec always gives the same bytes.
            fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
        data = buffer.getvalue()
        _KEPT[key] = data
        while len(_KEPT) > _KEEP:
            _KEPT.popitem(last=False)
        return data


def chart_png(chart: dict[str, Any], *, for_pdf: bool = False) -> bytes:
    """The chart as PNG bytes (``for_pdf``: at print resolution)."""
    return _drawn(chart, "png-pdf" if for_pdf else "png")


def chart_svg(chart: dict[str, Any]) -> str:
    """The chart as one ``<svg>`` element (no script) whose ``<title>`` is the chart's title."""
    text = _drawn(chart, "svg").decode("utf-8")
    body = _SVG_HEAD.sub(r"\1", text, count=1)
    title = html.escape(str(chart["title"]))
    open_end = body.index(">") + 1
    return f"{body[: open_end - 1]} role='img'>" + f"<title>{title}</title>" + body[open_end:]
