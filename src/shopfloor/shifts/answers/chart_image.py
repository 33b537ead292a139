"""One renderer for a validated chart spec: the same PNG goes into the HTML answer and the PDF.

The spec's points are drawn as they are (no number is computed here); a bar chart keeps the tool's row order,
a line chart joins the points in that order. Rendering is deterministic for a given spec.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display on a server; must precede pyplot's first import

from matplotlib.figure import Figure

WIDTH_IN, HEIGHT_IN, DPI = 6.4, 3.0, 110


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


def chart_png(chart: dict[str, Any]) -> bytes:
    """The chart as PNG bytes."""
    buffer = io.BytesIO()
    # No timestamps or software tags in the file, so the same spec always gives the same bytes.
    chart_figure(chart).savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
