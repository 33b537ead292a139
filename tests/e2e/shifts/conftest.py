"""A real Shift Investigator server for the browser tests: the hand-built record store of the investigation
tests (2026-09-07..11, 09-14..18 and 09-21, whose shift 2 has an excluded record), ``shopfloor serve`` in a
subprocess on a free port."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Server, free_port, python_command, serve
from tests.shifts.investigation.conftest import PARTIAL_DAY, WEEK_A, WEEK_B, build_day


def build_store(path: Path) -> Path:
    """The hand-built store at ``path``."""
    from shopfloor.shifts.records.store import connect, replace_day

    conn = connect(path)
    for day in WEEK_B:
        replace_day(conn, build_day(day, jam2_minutes=40))
    for day in WEEK_A:
        replace_day(conn, build_day(day))
    replace_day(conn, build_day(PARTIAL_DAY, excluded_shift=2))
    conn.close()
    return path


def shifts_env(var_dir: Path, store: Path, **extra: str) -> dict[str, str]:
    """The server's environment: its own var dir and store, the offline planner, no model keys."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("SHOPFLOOR_") and not k.endswith("_API_KEY")
    }
    env.update(
        {
            "SHOPFLOOR_VAR_DIR": str(var_dir),
            "SHOPFLOOR_SHIFTS_DB": str(store),
            "SHOPFLOOR_MODEL": "offline",
            # The browser tests make more than a person's 60 requests a minute; the limit has its own tests.
            "SHOPFLOOR_SHIFTS_RATE_LIMIT_PER_MINUTE": "100000",
            "PYTHONUNBUFFERED": "1",
            **extra,
        }
    )
    return env


@pytest.fixture(scope="package")
def shifts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One investigator server for the shifts browser tests."""
    var_dir = tmp_path_factory.mktemp("shifts-var")
    store = build_store(var_dir / "shifts.duckdb")
    port = free_port()
    command = python_command("serve", "--port", str(port))
    with serve(command, shifts_env(var_dir, store), port, "/healthz", var_dir / "server.log") as server:
        yield server


POPPLER = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils is not installed")


def download(page: Any, link: str, folder: Path) -> Path:
    """Click the link named ``link`` on ``page`` and save the file the browser downloads into ``folder``."""
    with page.expect_download() as info:
        page.get_by_role("link", name=link, exact=True).click()
    path = folder / info.value.suggested_filename
    info.value.save_as(path)
    return path


def pdf_title(path: Path) -> str:
    """A PDF's own title (its metadata, what a viewer's tab shows), read by poppler's ``pdfinfo``."""
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    return next(line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Title:"))


def pdf_text(path: Path) -> str:
    """A PDF's text as poppler's ``pdftotext`` reads it, its runs of white space (line breaks too) one space."""
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    return " ".join(text.split())
