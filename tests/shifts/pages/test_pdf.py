"""Both PDFs rendered to PNG pages with pdftoppm (poppler-utils): page count, title, a chart and the heatmap
on the pages, page numbers and the footer, tables that say how many rows they show."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient
from matplotlib.image import imread

from shopfloor.server.app import create_app
from shopfloor.settings import Settings

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils is not installed")

CHART_BLUE = np.array([0x1F, 0x5F, 0x8B]) / 255  # the renderer's bar colour
TEAL = np.array([8, 127, 117]) / 255  # the heatmap's shade at full density


@pytest.fixture()
def client(store_path, tmp_path):
    return TestClient(
        create_app(Settings(shifts_db=store_path, var_dir=tmp_path)), base_url="http://127.0.0.1"
    )


def pages_of(pdf: bytes, folder: Path) -> tuple[list[np.ndarray], str]:
    path = folder / "doc.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(folder / "page")], check=True)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True).stdout
    images = [imread(p)[..., :3] for p in sorted(folder.glob("page*.png"))]
    return images, text.decode("utf-8")


def has_colour(image: np.ndarray, colour: np.ndarray, pixels: int = 50) -> bool:
    return int((np.abs(image - colour).max(axis=2) < 0.06).sum()) >= pixels


@pytest.mark.slow
def test_day_answer_pdf_pages(client, tmp_path):
    r = client.get("/shifts/a?day=2026-09-16&shift=2&measure=overview&format=pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    images, text = pages_of(r.content, tmp_path)
    assert len(images) >= 2
    assert text.count("Page ") >= len(images) and f"Page {len(images)}" in text
    assert text.count("synthetic records") >= len(images)  # the footer on every page
    assert "/a?day=2026-09-16&shift=2&measure=overview" in text and "75.00 %" in text
    assert "Figure: Shift 2: Speed to target by grade (%)" in text
    assert any(has_colour(page, CHART_BLUE) for page in images)
    assert "rows shown" in text and "Definitions" in text and "Limitations" in text
    # Opened from its address, the answer has a plain title and its "Read as" line, never the address as title.
    read_as = client.get("/shifts/a.json?day=2026-09-16&shift=2&measure=overview").json()["read_as"]
    assert read_as and read_as[:40] in text and "planner: offline" in text
    assert any(line.strip() == "Shift Investigator answer" for line in text.splitlines())
    address = "/a?day=2026-09-16&shift=2&measure=overview"
    assert all(line.strip() != address for line in text.splitlines())
    # The footer stops short of the page number (the two never run into each other).
    assert all(
        re.search(r"\S\s{2,}Page \d+$", line.rstrip()) for line in text.splitlines() if "Page " in line
    )


@pytest.mark.slow
def test_period_report_pdf_pages(client, tmp_path):
    r = client.get("/shifts/report", params={"period": "month", "day": "2026-09-14", "format": "pdf"})
    images, text = pages_of(r.content, tmp_path)
    assert len(images) >= 2 and f"Page {len(images)}" in text
    assert "Period report: September 2026" in text
    assert "Figure: estimated good output per production day" in text
    assert any(has_colour(page, TEAL, pixels=20) for page in images)  # the heatmap's densest day
    assert any(has_colour(page, CHART_BLUE) for page in images)
    assert "of 0 rows shown" not in text or "No rows." in text
    assert "day hashes shown" in text


@pytest.mark.slow
def test_the_answer_pdfs_title_says_the_app_once_then_what_was_asked(client, tmp_path):
    """The PDF's title (what a viewer shows in its tab) never doubles the app's name: opened from its address,
    it says what the address was read as."""
    r = client.get("/shifts/a?day=2026-09-16&shift=2&measure=overview&format=pdf")
    path = tmp_path / "answer.pdf"
    path.write_bytes(r.content)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True, text=True).stdout
    title = next(line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Title:"))
    assert title == "Shift Investigator answer: shift diagnosis, shift 2, production day Wed 2026-09-16"
    assert title.count("Shift Investigator answer") == 1


@pytest.mark.slow
def test_the_spanish_answer_pdfs_title_says_what_was_read_never_its_label(client, tmp_path):
    """On a Spanish page the title drops the page's own "Leída como" label, as the English one drops "Read as:"."""
    r = client.get(
        "/shifts/a?day=2026-09-16&shift=2&measure=overview&format=pdf",
        headers={"accept": "text/html", "accept-language": "es-EC,es;q=0.9"},
    )
    path = tmp_path / "answer.pdf"
    path.write_bytes(r.content)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True, text=True).stdout
    title = next(line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Title:"))
    assert title.startswith("Respuesta del Investigador de turnos: diagnóstico del turno · "), title
    assert "Leída como" not in title and "Read as" not in title
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, check=True).stdout.decode()
    assert "Leída como diagnóstico del turno" in text  # the line itself keeps its label
