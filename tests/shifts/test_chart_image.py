"""The chart renderer draws exactly the spec's points, for the page and the PDF alike."""

import pytest

from shopfloor.shifts.answers.chart_image import chart_figure, chart_png, chart_svg
from shopfloor.shifts.answers.render import answer_pdf

CHART = {
    "chart_id": "c1",
    "kind": "bar",
    "title": "Downtime by reason (min)",
    "source": "r1",
    "component": None,
    "x": "reason",
    "y": "minutes",
    "points": [{"x": "Paper break", "y": 6.2, "row": 0}, {"x": "Knife jam", "y": 4.5, "row": 1}],
}


def test_bar_heights_are_the_points():
    ax = chart_figure(CHART).axes[0]
    assert [round(p.get_height(), 6) for p in ax.patches] == [6.2, 4.5]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Paper break", "Knife jam"]


def test_line_chart_joins_the_points_in_order():
    ax = chart_figure({**CHART, "kind": "line"}).axes[0]
    assert list(ax.lines[0].get_ydata()) == [6.2, 4.5]


def test_png_is_deterministic():
    first = chart_png(CHART)
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert chart_png(CHART) == first


@pytest.mark.parametrize("title", ["<script>alert(1)</script>", "a'b\"c"])
def test_svg_carries_the_escaped_title_and_no_script(title):
    svg = chart_svg({**CHART, "title": title})
    assert svg.startswith("<svg") and "<title>" in svg and "role='img'" in svg
    assert "<script" not in svg.lower()
    assert chart_svg({**CHART, "title": title}) == svg  # deterministic


def test_pdf_image_is_high_resolution():
    from io import BytesIO

    from matplotlib.image import imread

    page, pdf = imread(BytesIO(chart_png(CHART))), imread(BytesIO(chart_png(CHART, for_pdf=True)))
    assert pdf.shape[1] >= 2 * page.shape[1] - 2


def test_pdf_carries_the_chart_image():
    answer = {"question": "q", "status": "complete", "address": "/a", "sections": [], "charts": [CHART]}
    pdf = answer_pdf(answer)
    assert pdf.startswith(b"%PDF") and b"/Subtype /Image" in pdf
