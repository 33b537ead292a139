"""The chart renderer draws exactly the spec's points, for the page and the PDF alike."""

import pytest

from shopfloor.shifts.answers.chart_image import chart_figure, chart_png
from shopfloor.shifts.answers.render import answer_html, answer_pdf

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
def test_page_embeds_the_image_and_escapes_the_title(title):
    answer = {
        "question": "q",
        "status": "complete",
        "address": "/a",
        "sections": [],
        "charts": [{**CHART, "title": title}],
    }
    page = answer_html(answer)
    assert "data:image/png;base64," in page
    assert "<script>" not in page


def test_pdf_carries_the_chart_image():
    answer = {"question": "q", "status": "complete", "address": "/a", "sections": [], "charts": [CHART]}
    pdf = answer_pdf(answer)
    assert pdf.startswith(b"%PDF") and b"/Subtype /Image" in pdf


def test_page_uses_the_stylesheet_not_inline_styles_the_csp_would_block(tmp_path):
    from fastapi.testclient import TestClient

    from shopfloor.settings import Settings
    from shopfloor.web.app import create_app

    sections = [{"type": "label", "text": "Where to look"}]
    page = answer_html(
        {"question": "q", "status": "complete", "address": "/a", "sections": sections, "charts": []}
    )
    assert "style=" not in page and "<h3 class='label'>Where to look</h3>" in page
    assert "href='/shifts/answer.css'" in page
    response = TestClient(create_app(Settings(var_dir=tmp_path))).get("/shifts/answer.css")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/css")
    assert "h3.label" in response.text
