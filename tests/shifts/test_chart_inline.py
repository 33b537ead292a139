"""The page's inline charts draw exactly the spec's points as SVG elements the page's stylesheet styles: no
style attribute, no script, escaped text, a title and a description, one row per bar (issue 26, point 11)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from shopfloor.shifts.answers.chart_inline import WIDTH, chart_inline

NS = {"s": "http://www.w3.org/2000/svg"}
BARS = {
    "kind": "bar",
    "title": "Downtime by reason (min)",
    "x": "reason",
    "y": "minutes",
    "points": [{"x": "Paper break", "y": 6.2}, {"x": "Knife jam", "y": 4.5}, {"x": "Splice", "y": 0.0}],
}
DAYS = {
    "kind": "line",
    "title": "Lineal feet per production day",
    "x": "day",
    "y": "value",
    "points": [{"x": f"2026-09-{d:02d}", "y": 1000.0 * d} for d in range(1, 31) if d % 7 not in (5, 6)],
}


def test_bars_are_the_points_one_row_each_longest_for_the_largest():
    svg = ET.fromstring(chart_inline(BARS, "c1"))
    rects = svg.findall(".//s:rect", NS)
    widths = [float(r.get("width") or 0) for r in rects]
    assert widths[0] > widths[1] > widths[2] and widths[0] / widths[1] == pytest.approx(6.2 / 4.5, rel=0.01)
    tops = [float(r.get("y") or 0) for r in rects]
    assert tops == sorted(tops) and len(set(tops)) == 3  # one row per bar: labels never share a line
    labels = [t.text for t in svg.findall(".//s:text[@class='label']", NS)]
    assert labels == ["Paper break", "Knife jam", "Splice"]
    assert [t.text for t in svg.findall(".//s:text[@class='value']", NS)] == ["6.2", "4.5", "0"]
    assert svg.find("s:title", NS).text == "Downtime by reason (min)"
    assert svg.find("s:desc", NS).text == "Paper break 6.2, Knife jam 4.5, Splice 0"
    assert svg.get("aria-labelledby") == "c1-t c1-d" and svg.get("role") == "img"


def test_a_line_chart_labels_only_as_many_days_as_fit_and_joins_every_point():
    markup = chart_inline(DAYS, "c2")
    svg = ET.fromstring(markup)
    points = svg.find(".//s:polyline", NS).get("points").split()
    assert len(points) == len(DAYS["points"])
    ticks = [t for t in svg.findall(".//s:text[@class='tick']", NS) if t.get("text-anchor") == "middle"]
    xs = [float(t.get("x")) for t in ticks]
    # Side by side with room to spare: 5 characters of at most 7.6 units each, never closer than that.
    assert all(b - a >= 5 * 7.6 for a, b in pairwise(xs))
    assert ticks[0].text == "09-01" and max(xs) <= WIDTH


@pytest.mark.parametrize("text", ["<script>alert(1)</script>", "a'b\"c & d"])
def test_text_is_escaped_and_the_element_has_no_style_or_script(text):
    markup = chart_inline({**BARS, "title": text, "points": [{"x": text, "y": 1.0}]}, "c3")
    assert "<script" not in markup.lower() and "style=" not in markup
    svg = ET.fromstring(markup)
    assert svg.find("s:title", NS).text == text
    assert re.search(r"on\w+=", markup) is None
