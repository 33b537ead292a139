"""PDFs of a day answer and of a period report, drawn from the retained answer or report (never from HTML).

Trusted layout only: every string from the records or the question is escaped into ReportLab's paragraph
markup, and a section's figures (its parts, ``answers/findings.py``) are bold. Each page carries the title, its number and
the synthetic-data footer; each table says how many of its rows it shows. Charts are the page's charts at
print resolution; the heatmap is drawn as vector shapes, missing days hatched.

A PDF is drawn in a :class:`Voice`: English by default, or the page's language (``pages/pdf_view.py`` makes
it from the page's words): its own headings, labels and table headers from the catalogue, a said section
(``answers/sayings.py``) said again in it with the same figures and citations, and what the page's code says
of an answer (its "Read as" and scope lines, its status, chart and table titles) as the page says it.
Helvetica's encoding (WinAnsi) holds Spanish's letters (á é í ó ú ñ ü ¿ ¡).
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from babel.dates import format_date
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import (
    Image,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from shopfloor.shifts.answers.bands import band_of
from shopfloor.shifts.answers.cells import kpi_name, said_cell
from shopfloor.shifts.answers.chart_image import HEIGHT_IN, WIDTH_IN, chart_png
from shopfloor.shifts.answers.findings import cite_text, parts_of
from shopfloor.shifts.answers.sayings import ENGLISH, N_, NN_, RECORD, Translator, spoken

FOOTER = N_("Shift Investigator · synthetic records · read-only tools")
ROWS_PER_TABLE = 25
DEFINITIONS = N_(
    "Speed: lineal feet over elapsed minutes, stops included. Speed to target: lineal feet over the feet the "
    "grade targets would have made in the same minutes. Downtime, trim, shear and dry-end percentages are "
    "ratios of sums (minutes over scheduled minutes, area over gross area)."
)
LIMITATIONS = N_(
    "The records are synthetic. A recorded reason is an attribution, not proof of a mechanical cause. Dollars "
    "come from assumed rates. Missing or excluded records are unavailable, never zero, and an incomplete "
    "window is listed, never ranked."
)
TEAL = colors.Color(8 / 255, 127 / 255, 117 / 255)
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri")
# Each weekday of the heatmap's first week of September 2026 (a Monday first), named in the PDF's language.
_MONDAY = date(2026, 9, 7)


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Voice:
    """The language a PDF is drawn in: its catalogue and locale, and what the page's own code says of the
    answer or report in it (None, or the identity: as the answer and report say it, in English)."""

    locale: str = "en"
    tr: Translator = ENGLISH
    # The answer's "Read as" and scope lines, its status; the report's title and window.
    read_as: str | None = None
    scope: str | None = None
    status: str | None = None
    title: str | None = None
    window: str | None = None
    # A chart's or a report table's fixed title, a comparison's measure, and its window, in the language.
    titled: Callable[[str], str] = _same
    measure: Callable[[str], str] = _same
    window_of: Callable[[Mapping[str, Any]], str] | None = None
    # A figure's text in the language (a counted unit said in it, "4 paros"; None: the answer's own).
    figure: Callable[[Mapping[str, Any]], str] | None = None
    # A comparison's headline as Paragraph markup in the language (None: its own sentence).
    headline: Callable[[Mapping[str, Any]], str | None] | None = None

    def _(self, message: str) -> str:
        return self.tr.gettext(message)

    def n(self, forms: tuple[str, str], count: int, **params: Any) -> str:
        return self.tr.ngettext(forms[0], forms[1], count).format(n=count, **params)

    def said(self, section: Mapping[str, Any]) -> dict[str, Any]:
        """A section in this language: a said one said again from its template, any other as it is."""
        return dict(section) if self.tr is ENGLISH else spoken(section, self.tr)

    def weekday(self, index: int) -> str:
        if self.locale == "en":
            return WEEKDAYS[index]
        return format_date(date.fromordinal(_MONDAY.toordinal() + index), "EEE", locale=self.locale)


SPOKEN_ENGLISH = Voice()


def _marked(section: dict[str, Any], voice: Voice = SPOKEN_ENGLISH) -> str:
    """A section as Paragraph markup from its parts, in the voice's language: the text escaped, each figure
    bold."""
    return "".join(
        html.escape(part, quote=True)
        if isinstance(part, str)
        else html.escape(_window(part["window"], voice), quote=True)
        if "window" in part
        else html.escape(str(part.get("quote", part.get("asked"))), quote=True)
        if "quote" in part or "asked" in part
        else f"<b>{html.escape(_figure(part, voice), quote=True)}</b>"
        if "figure" in part
        else html.escape(_cite(part, voice), quote=True)
        for part in parts_of(voice.said(section))
    )


def _figure(part: Mapping[str, Any], voice: Voice) -> str:
    """A figure's text in the voice's language."""
    return voice.figure(part) if voice.figure else str(part["figure"])


def _window(window: Mapping[str, Any], voice: Voice) -> str:
    """A window by its label, in the voice's language."""
    return voice.window_of(window) if voice.window_of else str(window.get("label", ""))


# What a citation counts in, by its "of" (as the page's citations say it).
CITED_OF = {"row": N_("row"), "detail": N_("detail"), "weekday": N_("weekday"), "flag": N_("flag")}


def _cite(part: Mapping[str, Any], voice: Voice) -> str:
    """A citation: "(query 1 · row 4)", in the voice's language."""
    if voice.tr is ENGLISH:
        return cite_text(dict(part))
    query = voice._("query {number}").format(number=part["query"])
    if "row" not in part:
        return f"({query})"
    of = str(part.get("of", "row"))
    return f"({query} · {voice._(CITED_OF.get(of, of))} {part['row']})"


def _styles() -> dict[str, ParagraphStyle]:
    sheet = getSampleStyleSheet()
    return {
        "title": sheet["Title"],
        "h2": sheet["Heading2"],
        "h3": sheet["Heading4"],
        "body": sheet["Normal"],
        "small": ParagraphStyle("small", parent=sheet["Normal"], fontSize=8, leading=10),
        "caveat": sheet["Italic"],
        "cell": ParagraphStyle("cell", parent=sheet["Normal"], fontSize=7, leading=8.5),
    }


def _document(buffer: io.BytesIO, title: str, voice: Voice) -> tuple[SimpleDocTemplate, Any]:
    doc = SimpleDocTemplate(
        buffer, pagesize=letter, title=title, author=voice._("Shift Investigator"), bottomMargin=0.8 * inch
    )
    footer = voice._(FOOTER)

    def on_page(canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.setFillColor(colors.grey)
        number = voice._("Page {number}").format(number=document.page)
        room = document.width - canvas.stringWidth(number, "Helvetica", 8) - 12
        text = f"{footer} · {title}"
        while canvas.stringWidth(text, "Helvetica", 8) > room and len(text) > 1:
            text = text[:-2] + "…"  # the footer stops short of the page number
        canvas.drawString(document.leftMargin, 0.5 * inch, text)
        canvas.drawRightString(letter[0] - document.rightMargin, 0.5 * inch, number)
        canvas.restoreState()

    return doc, on_page


def table_flowables(
    title: str,
    rows: list[dict[str, Any]],
    styles: dict[str, ParagraphStyle],
    limit: int = ROWS_PER_TABLE,
    voice: Voice = SPOKEN_ENGLISH,
) -> list[Any]:
    """A titled table of at most ``limit`` rows that says how many of how many it shows (its columns named
    as the tool names them; the records' words in its cells said through the glossary)."""
    out: list[Any] = [Paragraph(html.escape(title), styles["h3"])]
    if not rows:
        out.append(Paragraph(html.escape(voice._("No rows.")), styles["caveat"]))
        return out
    columns = [c for c in rows[0] if not isinstance(rows[0][c], (dict, list))][:8]
    shown = rows[:limit]
    # A column is headed by its name in the PDF's language (pages/columns.py: context "column").
    data = [[Paragraph(html.escape(voice.tr.pgettext("column", str(c))), styles["cell"]) for c in columns]]
    data += [
        [Paragraph(html.escape(_cell(r.get(c), voice, str(c))), styles["cell"]) for c in columns]
        for r in shown
    ]
    table = Table(data, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.94, 0.96)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    out.append(table)
    shown_line = voice.n(
        NN_("{shown} of {n} row shown.", "{shown} of {n} rows shown."), len(rows), shown=len(shown)
    )
    out.append(Paragraph(html.escape(shown_line), styles["small"]))
    return out


# A comparison's end of a row and which end is better, as the PDF says them.
ENDS = {"best": N_("best"), "worst": N_("worst"), "level": N_("level")}
BETTER = {"higher": N_("higher is better"), "lower": N_("lower is better")}


def comparison_flowables(
    section: dict[str, Any], styles: dict[str, ParagraphStyle], voice: Voice = SPOKEN_ENGLISH
) -> list[Any]:
    """A comparison's side-by-side table (``answers/comparison.py``): its caption, one column per group with
    the row each column cites, one row per measure, each figure bold with its end of the row in words."""
    window_data = section.get("window") or {}
    window = voice.window_of(window_data) if voice.window_of else window_data.get("label", "")
    if section.get("group_by") == "crew":
        caption = voice._("Crews side by side, {window}").format(window=window)
    else:
        caption = voice._("Shifts side by side, {window}").format(window=window)
    if section.get("ranked"):
        note = voice._("Each row names its best and worst in words.")
    else:
        note = voice._("Not ranked: the evidence is incomplete, so no row names a best or a worst.")
    out: list[Any] = [
        Paragraph(html.escape(caption), styles["h3"]),
        Paragraph(html.escape(note), styles["small"]),
    ]
    head = [Paragraph(f"<b>{html.escape(voice._('Measure'))}</b>", styles["cell"])]
    for column in section["columns"]:
        cite = html.escape(_cite({"query": column["query"], "row": column["row"]}, voice))
        group = str(column["group"])
        if voice.tr is not ENGLISH and "key" in column:
            crew = section.get("group_by") == "crew"
            group = (voice._("Crew {crew}") if crew else voice._("Shift {shift}")).format(
                crew=column["key"], shift=column["key"]
            )
        head.append(Paragraph(f"<b>{html.escape(group)}</b><br/>{cite}", styles["cell"]))
    data = [head]
    for row in section["rows"]:
        better = row.get("better")
        if better and voice.tr is not ENGLISH:
            said = voice._(BETTER[better]) if better in BETTER else f"{better} is better"
        else:
            said = f"{better} is better" if better else ""
        judged = f"<br/>{html.escape(said)}" if said else ""
        label = voice.measure(str(row["measure"])) if voice.tr is not ENGLISH else str(row["label"])
        cells = [Paragraph(f"{html.escape(label)}{judged}", styles["cell"])]
        for cell in row["cells"]:
            ended = cell.get("end")
            end_said = voice._(ENDS[ended]) if ended in ENDS else ended
            end = f"<br/>{html.escape(str(end_said).upper())}" if ended else ""
            cells.append(Paragraph(f"<b>{html.escape(_figure(cell, voice))}</b>{end}", styles["cell"]))
        data.append(cells)
    table = Table(data, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.92, 0.94, 0.96)),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    out += [table, Spacer(1, 6)]
    return out


def _chart(
    chart: dict[str, Any], styles: dict[str, ParagraphStyle], voice: Voice = SPOKEN_ENGLISH
) -> list[Any]:
    title = voice.titled(str(chart["title"]))
    if chart.get("x") == "measure":
        # A KPI row's measure named in words, never its code (answers/cells.kpi_name).
        named = [{**p, "x": kpi_name(str(p["x"]), voice.tr) or str(p["x"])} for p in chart["points"]]
        chart = {**chart, "points": named}
    if voice.tr is not ENGLISH:
        # The records' words on its axis said through the glossary (a grade or a code as it is).
        points = [{**p, "x": voice.tr.pgettext(RECORD, str(p["x"]))} for p in chart["points"]]
        chart = {**chart, "title": title, "points": points}
    # The caption stays on the page of its figure.
    return [
        Spacer(1, 6),
        KeepTogether(
            [
                Paragraph(html.escape(voice._("Figure: {title}").format(title=title)), styles["h3"]),
                Image(
                    io.BytesIO(chart_png(chart, for_pdf=True)), width=WIDTH_IN * inch, height=HEIGHT_IN * inch
                ),
            ]
        ),
    ]


def heading(answer: dict[str, Any], voice: Voice = SPOKEN_ENGLISH) -> str:
    """The answer's title: the question it was asked with; opened from its address, a plain title (its
    "Read as" line follows it), never the address."""
    question = answer.get("question")
    if question and question != answer.get("address"):
        return str(question)
    return voice._("Shift Investigator answer")


def pdf_title(answer: dict[str, Any], voice: Voice = SPOKEN_ENGLISH) -> str:
    """The PDF's own title (its metadata, what a viewer's tab shows): the app, then the question, or opened
    from its address what it was read as ("Shift Investigator answer: shift diagnosis, shift 2, …"); the
    plain title once, never twice."""
    question = answer.get("question")
    if question and question != answer.get("address"):
        return voice._("Shift Investigator answer: {what}").format(what=question)
    own = voice.read_as if voice.read_as is not None else str(answer.get("read_as") or "")
    # The line's label in the reader's words ("Read as:") or the page language's own ("Leída como"): the title
    # says what the answer was read as, never the label (docs/shifts-agent.md, the PDFs' language).
    label = voice._("Read as {what} · {scope}").split("{what}")[0].strip()
    read_as = own.removeprefix("Read as:").strip()
    if label and read_as.startswith(label + " "):
        read_as = read_as.removeprefix(label).strip()
    return (
        voice._("Shift Investigator answer: {what}").format(what=read_as) if read_as else heading({}, voice)
    )


def answer_pdf(answer: dict[str, Any], voice: Voice = SPOKEN_ENGLISH) -> bytes:
    """A day answer: title, scope, status, its sections (findings, then charts, then caveats), the evidence
    tables, definitions and limitations, in ``voice``'s language."""
    styles = _styles()
    buffer = io.BytesIO()
    title = pdf_title(answer, voice)
    doc, on_page = _document(buffer, title, voice)
    scope = answer.get("scope") or {}
    usage = answer.get("usage") or {}
    planner = voice._("Synthetic records · planner: {planner}").format(
        planner=html.escape(str(usage.get("planner") or "offline"))
    )
    scope_text = voice.scope if voice.scope is not None else _scope_text(scope)
    status = voice.status if voice.status is not None else str(answer.get("status"))
    story: list[Any] = [
        Paragraph(planner, styles["caveat"]),
        Paragraph(html.escape(heading(answer, voice)), styles["title"]),
        Paragraph(
            voice._("Scope: {scope} · Status {status} · {address}").format(
                scope=html.escape(scope_text),
                status=html.escape(status),
                address=html.escape(answer.get("address") or ""),
            ),
            styles["body"],
        ),
    ]
    read_as = voice.read_as if voice.read_as is not None else answer.get("read_as")
    if read_as:
        story.append(Paragraph(html.escape(str(read_as)), styles["caveat"]))
    story.append(Spacer(1, 6))
    sections = answer.get("sections", [])
    lead = [
        s
        for s in sections
        if s["type"] in ("headline", "finding", "label", "comparison") and s["text"] != "Where to look"
    ]
    rest = [s for s in sections if s not in lead and s["type"] != "where" and s["text"] != "Where to look"]
    if voice.read_as is not None:
        rest = [s for s in rest if s["type"] != "read_as"]  # the voice's own "Read as" line says it
    where = [s for s in sections if s["type"] == "where"]
    for s in lead:
        if s["type"] == "comparison":
            story.extend(comparison_flowables(s, styles, voice))
            continue
        style = {"headline": "h2", "label": "h3"}.get(s["type"], "body")
        own = voice.headline(s) if voice.headline is not None and "comparison" in s else None
        story.append(Paragraph(own if own is not None else _marked(s, voice), styles[style]))
    for chart in answer.get("charts", []):
        story.extend(_chart(chart, styles, voice))
    for s in rest:
        story.append(Paragraph(_marked(s, voice), styles["caveat" if s["type"] == "caveat" else "body"]))
    if where:
        story.append(Paragraph(html.escape(voice._("Where to look")), styles["h3"]))
        story.extend(Paragraph(_marked(s, voice), styles["body"]) for s in where)
    for env in answer.get("evidence", []):
        story.append(Spacer(1, 6))
        query = voice._("Query {query}: {tool}").format(query=env["query"], tool=env["tool"])
        story.extend(table_flowables(query, env.get("rows", []), styles, voice=voice))
    usage = answer.get("usage") or {}
    planned = voice._("Planner {model}, {calls} tool calls, model cost ${cost}.").format(
        model=html.escape(str(usage.get("model", "offline-planner"))),
        calls=usage.get("tool_calls", 0),
        cost=f"{float(usage.get('cost_usd') or 0):.2f}",
    )
    story += [Spacer(1, 8), *_closing(styles, voice), Paragraph(planned, styles["small"])]
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _closing(styles: dict[str, ParagraphStyle], voice: Voice) -> list[Any]:
    """The definitions and the limitations, in the voice's language."""
    return [
        Paragraph(html.escape(voice._("Definitions")), styles["h3"]),
        Paragraph(html.escape(voice._(DEFINITIONS)), styles["small"]),
        Paragraph(html.escape(voice._("Limitations")), styles["h3"]),
        Paragraph(html.escape(voice._(LIMITATIONS)), styles["small"]),
    ]


def heatmap_drawing(
    cells: list[dict[str, Any]], cell: float = 28.0, voice: Voice = SPOKEN_ENGLISH
) -> Drawing:
    """The heatmap as vector shapes: one square per production day, Monday to Friday across, weeks down;
    shade = the report's alpha, missing or incomplete days hatched."""
    weeks: dict[date, int] = {}
    for c in cells:
        d = date.fromisoformat(c["day"])
        monday = date.fromordinal(d.toordinal() - d.weekday())
        weeks.setdefault(monday, len(weeks))
    height = (len(weeks) + 1) * cell
    drawing = Drawing(5 * cell + 10, height + 4)
    for i in range(5):
        drawing.add(String(i * cell + 4, height - 12, voice.weekday(i), fontSize=7))
    for c in cells:
        d = date.fromisoformat(c["day"])
        if d.weekday() > 4:
            continue
        row = weeks[date.fromordinal(d.toordinal() - d.weekday())]
        x, y = d.weekday() * cell, height - (row + 2) * cell + 2
        if c.get("value") is None:
            drawing.add(Rect(x, y, cell - 2, cell - 2, fillColor=colors.white, strokeColor=colors.grey))
            for k in range(0, int(2 * cell), 5):
                x0, y0 = x + max(0, k - cell + 2), y + min(k, cell - 2)
                x1, y1 = x + min(k, cell - 2), y + max(0, k - cell + 2)
                drawing.add(Line(x0, y0, x1, y1, strokeColor=colors.grey, strokeWidth=0.5))
        else:
            alpha = float(c.get("alpha") or 1.0)
            fill = colors.Color(TEAL.red, TEAL.green, TEAL.blue, alpha=alpha)
            drawing.add(Rect(x, y, cell - 2, cell - 2, fillColor=fill, strokeColor=colors.grey))
        drawing.add(String(x + 3, y + 3, c["day"][8:], fontSize=6))
    return drawing


def report_pdf(report: dict[str, Any], voice: Voice = SPOKEN_ENGLISH) -> bytes:
    """A period report: title, window, status, sections, the heatmap and charts as figures, its tables
    (rows shown of total), coverage, definitions, limitations and the per-day dataset hashes, in ``voice``'s
    language."""
    styles = _styles()
    buffer = io.BytesIO()
    title = voice.title if voice.title is not None else str(report["title"])
    doc, on_page = _document(buffer, title, voice)
    coverage = report["coverage"]
    window = voice.window if voice.window is not None else str(report["window"].get("label"))
    status = voice.status if voice.status is not None else str(report["status"])
    story: list[Any] = [
        Paragraph(
            html.escape(voice._("Synthetic records · deterministic report (no model)")), styles["caveat"]
        ),
        Paragraph(html.escape(title), styles["title"]),
        Paragraph(
            html.escape(
                voice._(
                    "Window {window} · Status {status} · coverage {valid} of {expected} production days"
                ).format(
                    window=window,
                    status=status,
                    valid=coverage["valid_days"],
                    expected=coverage["expected_days"],
                )
            ),
            styles["body"],
        ),
    ]
    lines = report.get("said") or [None] * len(report["sections"])
    for line, said in zip(report["sections"], lines, strict=False):
        text = html.escape(str(line)) if said is None else _marked({"text": str(line), "say": said}, voice)
        story.append(Paragraph(text, styles["body"]))
    figure = voice._("Figure: estimated good output per production day (hatched: no figure)")
    story.append(Paragraph(html.escape(figure), styles["h3"]))
    story.append(heatmap_drawing(report["heatmap"], voice=voice))
    for chart in report["charts"]:
        if chart["points"]:
            story.extend(_chart({**chart, "x": "day", "y": "value"}, styles, voice))
    for table in report["tables"]:
        story.append(Spacer(1, 6))
        story.extend(table_flowables(voice.titled(str(table["title"])), table["rows"], styles, voice=voice))
    story += [
        Spacer(1, 8),
        *_closing(styles, voice),
        Paragraph(html.escape(voice._("Dataset hashes")), styles["h3"]),
    ]
    hashes = report.get("dataset_hashes", [])
    story.extend(
        Paragraph(f"{html.escape(str(h['day']))} {html.escape(str(h['sha256']))}", styles["small"])
        for h in hashes[:70]
    )
    shown = voice._("{shown} of {total} day hashes shown.").format(
        shown=min(len(hashes), 70), total=len(hashes)
    )
    story.append(Paragraph(html.escape(shown), styles["small"]))
    doc.build(story, onFirstPage=on_page, onLaterPages=on_page)
    return buffer.getvalue()


def _scope_text(scope: dict[str, Any]) -> str:
    parts = [str(scope.get("day", ""))]
    parts.append(f"shift {scope['shift']}" if scope.get("shift") else "every shift")
    if scope.get("include") == "day" and scope.get("shift"):
        parts.append("every shift of the day")
    if scope.get("period") and scope["period"] != "day":
        parts.append(str(scope["period"]))
    return " · ".join(parts)


def _cell(value: Any, voice: Voice = SPOKEN_ENGLISH, column: str | None = None) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, bool) and voice.tr is not ENGLISH:
        return voice._("yes") if value else voice._("no")
    if isinstance(value, str) and voice.tr is not ENGLISH:
        band = band_of(value)
        if band is not None:
            return voice._(band[0]).format(band=band[1])[:80]
        # A tool's own words in its column (answers/cells.py), else a record's word through the glossary.
        said = said_cell(value, column, voice.tr)
        return (said if said is not None else voice.tr.pgettext(RECORD, value))[:80]
    return str(value)[:80]
