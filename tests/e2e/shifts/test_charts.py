"""Charts people can read on a phone (issue 26, point 11), in Debian's Chromium at 390 px and at desktop width,
in Spanish and English (the Spanish labels are longer): every chart titled and labelled in the page's language
(the records' words through the glossary, a place and its reason word by word, none marked as another);
every chart an inline SVG element with its title and description (no image, no ``data:`` address), every text
in it at least 11 CSS px, and no two of its texts overlapping; the page's stylesheet colours it (CSP: no style
attribute)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE

PAGES = (
    "/shifts/a?day=2026-09-14&shift=2&measure=overview",
    "/shifts/a?day=2026-09-14&shift=2&measure=downtime&by=reason&chart=1",
    "/shifts/?day=2026-09-14&shift=2&period=month",
    "/shifts/a?day=2026-09-14&measure=compare_shifts",  # every shift side by side
)

MEASURE = """() => [...document.querySelectorAll('svg.chart-svg')].map(svg => {
    const scale = svg.getScreenCTM().a;
    const texts = [...svg.querySelectorAll('text')].map(t => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
                box: [r.left, r.top, r.right, r.bottom]};
    });
    return {title: svg.querySelector('title').textContent, desc: svg.querySelector('desc').textContent,
            lang: svg.querySelector('title').closest('[lang]').getAttribute('lang'),
            labels: [...svg.querySelectorAll('text')].map(t => [t.textContent, t.closest('[lang]').getAttribute('lang')]),
            fill: (m => m.tagName === 'polyline' ? getComputedStyle(m).stroke : getComputedStyle(m).fill)(
                svg.querySelector('rect, polyline')),
            texts};
})"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


HEADERS = {"es": "es-EC,es;q=0.9", "en": "en-US,en;q=0.9"}

# Each page's chart titles, in order, and the labels of the charts whose labels are the records' words (the
# reasons and places of the hand-built store, tests/shifts/investigation/conftest.py), in each language.
TITLES = {
    "es": (
        [
            "Turno 2: Velocidad frente al objetivo por grado (%)",
            "Turno 2: Paros por motivo (min)",
            "Turno 2: Área rechazada por familia (pies²)",
        ],
        ["Paros (min)"],
        ["Pies lineales por día de producción", "Minutos de paro por lugar / motivo"],
        # Each shift's own, titled with its shift.
        [f"Turno {n}: Indicadores del turno" for n in (1, 2, 3)]
        + [f"Turno {n}: Paros (min)" for n in (1, 2, 3)]
        + [f"Turno {n}: Velocidad frente al objetivo por corrida del extremo húmedo (%)" for n in (1, 2, 3)],
    ),
    "en": (
        [
            "Shift 2: Speed to target by grade (%)",
            "Shift 2: Downtime by reason (min)",
            "Shift 2: Rejected area by family (sq ft)",
        ],
        ["Downtime (min)"],
        ["Lineal feet per production day", "Downtime minutes by place / reason"],
        [f"Shift {n}: Shift KPIs" for n in (1, 2, 3)]
        + [f"Shift {n}: Downtime (min)" for n in (1, 2, 3)]
        + [f"Shift {n}: Speed to target by wet-end run (%)" for n in (1, 2, 3)],
    ),
}
KPI_TITLE = {"es": "Indicadores del turno", "en": "Shift KPIs"}
LABELS = {
    "es": (
        [["pegado", "2,000"]],
        [["Atasco de cuchilla", "20", "Mantenimiento programado", "30"]],
        [["Cuchilla superior / Atasco de cuchilla", "320", "Planta / Mantenimiento programado", "330"]],
        [
            ["Atasco de cuchilla", "10", "Empalme fallido", "5"],
            ["Atasco de cuchilla", "20", "Mantenimiento programado", "30"],
            ["Corte de energía", "15"],
        ],
    ),
    "en": (
        [["bond", "2,000"]],
        [["Knife jam", "20", "Scheduled maintenance", "30"]],
        [["Upper knife / Knife jam", "320", "Plant / Scheduled maintenance", "330"]],
        [
            ["Knife jam", "10", "Missed splice", "5"],
            ["Knife jam", "20", "Scheduled maintenance", "30"],
            ["Power outage", "15"],
        ],
    ),
}


@pytest.mark.parametrize("language", ["es", "en"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_chart_text_is_at_least_11_px_and_none_overlaps(
    new_page: Any, shifts_server: Any, viewport, language
):
    page = new_page(viewport=viewport, extra_http_headers={"Accept-Language": HEADERS[language]})
    seen = 0
    labelled = 0
    for path, titles, labels in zip(PAGES, TITLES[language], LABELS[language], strict=True):
        page.goto(shifts_server.url(path))
        assert page.get_attribute("html", "lang") == language
        assert page.locator("#main img[src^='data:']").count() == 0
        charts = page.evaluate(MEASURE)
        # Titled and labelled in the page's language, none of it marked as another.
        assert [chart["title"] for chart in charts] == titles, path
        drawn = [[text for text, _ in chart["labels"]] for chart in charts]
        assert [said for said in labels if said not in drawn] == [], (path, drawn)
        for chart in charts:
            seen += 1
            assert chart["title"] and chart["desc"], path
            assert chart["lang"] == language, path
            # A KPI chart's bars are labelled with the tools' measure codes, kept as they are (marked English).
            if not chart["title"].endswith(KPI_TITLE[language]):
                assert {lang for _, lang in chart["labels"]} == {language}, (path, chart["title"])
            if [text for text, _ in chart["labels"]] in labels:
                labelled += 1
                assert chart["labels"][0][0] in chart["desc"], path
            assert chart["fill"] not in ("", "none", "rgb(0, 0, 0)"), (path, chart["title"])
            small = [(t["text"], round(t["px"], 1)) for t in chart["texts"] if t["px"] < 11]
            assert small == [], (path, chart["title"])
            texts = chart["texts"]
            clashes = [
                (a["text"], b["text"])
                for i, a in enumerate(texts)
                for b in texts[i + 1 :]
                if overlaps(a["box"], b["box"])
            ]
            assert clashes == [], (path, chart["title"])
    assert seen >= 5 and labelled == 6
