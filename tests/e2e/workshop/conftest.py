"""A real Toquilla Trace server for the browser tests: ``shopfloor workshop init`` then ``shopfloor serve`` in
a subprocess, on a free port, with its own var dir (SQLite store with the sample data, offline note reader)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, Server, free_port, python_command, serve

ACCOUNTS = {
    "ana": ("ana@taller.example", "ana-toquilla-demo"),
    "admin": ("admin@taller.example", "admin-toquilla-demo"),
    "pedro": ("pedro@pile.example", "pedro-toquilla-demo"),
}
SAMPLE_NOTE = (
    "Doña Rosa Pillco terminó 3 finos de 18 hileras. El TQ-7F3K2 pasó a lavado, el TQ-2C5P0 ya está listo "
    "y el de Carmen en blanqueo tiene la hilera abierta, no coincide el grado."
)

# The Accept-Language of a browser in each page language: a member's pages are Spanish whatever it says, an
# admin's (and the sign-in page) follow it.
BROWSER = {"es": "es-EC,es;q=0.9", "en": "en-US,en;q=0.9"}
# A test marked so runs in both languages at both widths.
LANGUAGES_AND_WIDTHS = pytest.mark.parametrize(
    ("language", "viewport"),
    [("es", PHONE), ("en", DESKTOP), ("es", DESKTOP), ("en", PHONE)],
    ids=["es-phone", "en-desktop", "es-desktop", "en-phone"],
)


def server_env(var_dir: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The server's environment: its own var dir, the offline reader, no model keys (``extra`` on top)."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("SHOPFLOOR_") and not k.endswith("_API_KEY")
    }
    env.update({"SHOPFLOOR_VAR_DIR": str(var_dir), "SHOPFLOOR_MODEL": "offline", "PYTHONUNBUFFERED": "1"})
    env.update(extra or {})
    return env


def start_workshop(var_dir: Path, extra_env: dict[str, str] | None = None) -> Any:
    """A context manager serving the workshop app from a fresh store in ``var_dir``."""
    import subprocess

    var_dir.mkdir(parents=True, exist_ok=True)
    env = server_env(var_dir, extra_env)
    subprocess.run(python_command("workshop", "init"), env=env, check=True, capture_output=True)
    port = free_port()
    return serve(python_command("serve", "--port", str(port)), env, port, "/healthz", var_dir / "server.log")


@pytest.fixture(scope="module")
def workshop_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One workshop server per test module (each module starts from the sample data)."""
    with start_workshop(tmp_path_factory.mktemp("workshop-var")) as server:
        yield server


def sign_in_as(page: Any, server: Server, who: str) -> Any:
    """Sign ``page`` in as ``who`` (a key of ACCOUNTS) through ``server``'s sign-in page; lands on the
    dashboard."""
    email, password = ACCOUNTS[who]
    page.goto(server.url("/workshop/signin"))
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("form button[type=submit]")
    page.wait_for_url("**/workshop/")
    return page


@pytest.fixture
def sign_in(workshop_server: Server) -> Callable[[Any, str], Any]:
    """``sign_in(page, "ana")``: sign in through the sign-in page and land on the dashboard."""

    def go(page: Any, who: str) -> Any:
        return sign_in_as(page, workshop_server, who)

    return go
