"""The server's landing page in the visitor's language: the switch's cookie, else the browser's
``Accept-Language`` (any ``es-*`` is Spanish), else English; its own catalogues, checked at start."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shopfloor.server import landing
from shopfloor.server.app import create_app
from shopfloor.settings import Settings
from shopfloor.web.languages import CatalogueError
from tests.catalogues import assert_catalogues_cover_pages


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    app = create_app(Settings(var_dir=tmp_path_factory.mktemp("landing")))
    return TestClient(app, raise_server_exceptions=False)


def test_the_page_language_is_the_cookie_then_the_browser_then_english() -> None:
    assert landing.page_locale(None, "es-EC,es;q=0.9") == "es"
    assert landing.page_locale(None, "es-419") == "es"
    assert landing.page_locale(None, "de-DE,de;q=0.9,es;q=0.5") == "es"
    assert landing.page_locale(None, "en-US,es;q=0.8") == "en"
    assert landing.page_locale(None, "fr-FR") == "en"
    assert landing.page_locale(None, None) == "en"
    assert landing.page_locale("en", "es-EC") == "en"
    assert landing.page_locale("es", "en-US") == "es"
    assert landing.page_locale("xx", "es-EC") == "es"  # a cookie that names no language of ours is ignored


def test_a_spanish_browser_gets_the_page_in_spanish(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "es-EC,es;q=0.9"})
    assert page.status_code == 200
    assert page.text.startswith("<!doctype html><html lang=es>")
    assert "Asistentes que proponen; las personas deciden." in page.text
    assert ">Investigador de turnos</a>" in page.text and ">Toquilla Trace</a>" in page.text
    assert "versión " in page.text and "modelo: " in page.text
    assert "Assistants that propose" not in page.text and "Shift Investigator" not in page.text
    # The switch names the other language in that language.
    assert '<a href="/language?lang=en" lang="en" hreflang="en">English</a>' in page.text
    assert "Accept-Language" in page.headers["vary"] and "Cookie" in page.headers["vary"]


def test_any_other_browser_gets_the_page_in_english(client: TestClient) -> None:
    for header in ("en-US,en;q=0.9", "fr-FR", ""):
        page = client.get("/", headers={"Accept-Language": header})
        assert page.text.startswith("<!doctype html><html lang=en>")
        assert (
            "Assistants that propose; people decide." in page.text and ">Shift Investigator</a>" in page.text
        )
        assert "Asistentes" not in page.text
        assert '<a href="/language?lang=es" lang="es" hreflang="es">Español</a>' in page.text


def test_the_switch_keeps_the_choice_in_a_cookie_over_the_browser(client: TestClient) -> None:
    answer = client.get("/language?lang=es", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("shopfloor_lang=es;") and "Max-Age=31536000" in cookie and "Path=/" in cookie
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    chosen = TestClient(client.app, cookies={"shopfloor_lang": "es"})
    assert chosen.get("/", headers={"Accept-Language": "en-US"}).text.startswith(
        "<!doctype html><html lang=es>"
    )
    chosen.cookies.set("shopfloor_lang", "en")
    assert chosen.get("/", headers={"Accept-Language": "es-EC"}).text.startswith(
        "<!doctype html><html lang=en>"
    )


def test_the_switch_refuses_a_language_that_is_not_ours(client: TestClient) -> None:
    answer = client.get("/language?lang=fr", follow_redirects=False)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    assert "set-cookie" not in answer.headers


def test_the_page_keeps_the_strict_policy_and_runs_no_script(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "es"})
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script" not in page.text and re.search(r"\son\w+=", page.text) is None  # no handler attribute


def test_the_server_does_not_start_without_its_landing_catalogues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(landing, "LOCALE_DIR", tmp_path / "locale")
    with pytest.raises(CatalogueError, match="make catalogues"):
        create_app(Settings(var_dir=tmp_path))


def test_the_server_does_not_start_with_a_stale_landing_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for locale in landing.LOCALES:
        source = landing.LOCALE_DIR / locale / "LC_MESSAGES"
        folder = tmp_path / "locale" / locale / "LC_MESSAGES"
        folder.mkdir(parents=True)
        for name in ("messages.po", "messages.mo"):
            (folder / name).write_bytes((source / name).read_bytes())
    stale = tmp_path / "locale" / "es" / "LC_MESSAGES"
    mo_time = (stale / "messages.mo").stat().st_mtime
    os.utime(stale / "messages.po", (mo_time + 10, mo_time + 10))
    monkeypatch.setattr(landing, "LOCALE_DIR", tmp_path / "locale")
    with pytest.raises(CatalogueError, match=r"older than its \.po"):
        create_app(Settings(var_dir=tmp_path))


def test_every_landing_string_is_in_both_catalogues_and_translated_to_spanish(tmp_path: Path) -> None:
    assert_catalogues_cover_pages(landing.LOCALE_DIR, "src/shopfloor/server/babel.cfg", tmp_path, at_least=5)
