"""Page languages: which one a request gets, and catalogues that cover every page string."""

from __future__ import annotations

from pathlib import Path

from shopfloor.workshop.pages.i18n import LOCALE_DIR, accepted_languages, browser_locale, page_locale
from tests.catalogues import assert_catalogues_cover_pages


def test_accept_language_is_read_by_weight_then_order() -> None:
    assert accepted_languages("en-US,en;q=0.8,es-EC;q=0.9") == ["en", "es", "en"]
    assert accepted_languages("fr;q=0, es") == ["es"]
    assert accepted_languages(None) == []


def test_any_spanish_locale_gets_spanish_before_sign_in() -> None:
    assert browser_locale("es-EC,es;q=0.9") == "es"
    assert browser_locale("es-419") == "es"
    assert browser_locale("de-DE,de;q=0.9,en;q=0.5") == "en"
    assert browser_locale("de-DE") == "en"
    assert browser_locale(None) == "en"


def test_members_default_to_spanish_and_a_saved_choice_wins() -> None:
    assert page_locale(None, "member", "en-US") == "es"
    assert page_locale("en", "member", "es-EC") == "en"
    assert page_locale(None, "admin", "en-US") == "en"
    assert page_locale(None, "admin", "es-EC") == "es"
    assert page_locale("xx", "admin", "en") == "en"  # an unknown stored value is ignored


def test_every_page_string_is_in_both_catalogues_and_translated_to_spanish(tmp_path: Path) -> None:
    assert_catalogues_cover_pages(
        LOCALE_DIR, "src/shopfloor/workshop/pages/babel.cfg", tmp_path, at_least=100, keywords=["NN_:1,2"]
    )
