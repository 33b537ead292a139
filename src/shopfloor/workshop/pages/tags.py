"""Printable hat tags (ReportLab): one tag per new hat with its code in large type and as a QR code, the
weaver, grade, rows per inch and date, so the code on the record is the code on the hat."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

TAG_W, TAG_H = 90 * mm, 55 * mm
MARGIN = 12 * mm
GAP = 6 * mm


@dataclass(frozen=True)
class Tag:
    """What one tag shows (labels already in the page language)."""

    code: str
    weaver: str
    grade: str
    rows: str
    day: date


def _qr(c: canvas.Canvas, text: str, x: float, y: float, size: float) -> None:
    widget = QrCodeWidget(text, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, c, x, y)


def tags_pdf(tags: list[Tag], title: str, labels: dict[str, str]) -> bytes:
    """A4 pages of tags, two columns, as PDF bytes. ``labels`` names the weaver, grade, rows and date lines."""
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4, pageCompression=1)
    c.setTitle(title)
    c.setAuthor("Toquilla Trace")
    _, page_h = A4
    per_row = 2
    rows_per_page = int((page_h - 2 * MARGIN + GAP) // (TAG_H + GAP))
    per_page = per_row * rows_per_page
    for n, tag in enumerate(tags):
        if n and n % per_page == 0:
            c.showPage()
        slot = n % per_page
        x = MARGIN + (slot % per_row) * (TAG_W + GAP)
        y = page_h - MARGIN - (slot // per_row + 1) * TAG_H - (slot // per_row) * GAP
        c.setDash(3, 3)
        c.rect(x, y, TAG_W, TAG_H)  # where to cut
        c.setDash()
        c.setFont("Helvetica-Bold", 26)
        c.drawString(x + 5 * mm, y + TAG_H - 14 * mm, tag.code)
        qr = 30 * mm
        _qr(c, tag.code, x + TAG_W - qr - 3 * mm, y + 3 * mm, qr)
        c.setFont("Helvetica", 10)
        lines = [
            f"{labels['weaver']}: {tag.weaver}",
            f"{labels['grade']}: {tag.grade}",
            f"{labels['rows']}: {tag.rows}",
            f"{labels['date']}: {tag.day.isoformat()}",
        ]
        for k, line in enumerate(lines):
            c.drawString(x + 5 * mm, y + TAG_H - 24 * mm - k * 6 * mm, line[:40])
    if not tags:
        c.drawString(MARGIN, page_h - MARGIN, title)
    c.showPage()
    c.save()
    return out.getvalue()
