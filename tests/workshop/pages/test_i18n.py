"""Page languages: which one a request gets, and catalogues that cover every page string."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from shopfloor.workshop.pages.i18n import LOCALE_DIR, accepted_languages, browser_locale, page_locale

ROOT = Path(__file__).resolve().parents[3]


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


def _catalogue(locale: str) -> dict[str, object]:
    with (LOCALE_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in read_po(f) if m.id}


def test_every_page_string_is_in_both_catalogues_and_translated_to_spanish(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            str(Path(sys.executable).with_name("pybabel")),
            "--quiet",
            "extract",
            "-F",
            "src/shopfloor/workshop/pages/babel.cfg",
            "-k",
            "NN_:1,2",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
    )
    with pot.open("rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert len(wanted) > 100
    spanish, english = _catalogue("es"), _catalogue("en")
    assert wanted - set(spanish) == set(), "run `make messages` and translate"
    assert wanted - set(english) == set(), "run `make messages`"
    untranslated = [
        k for k in wanted if not spanish[k] or (isinstance(spanish[k], (tuple, list)) and not all(spanish[k]))
    ]
    assert untranslated == []
    # A fuzzy entry (Babel's mark for a changed msgid) is left out of the compiled catalogue: English again.
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        fuzzy = [m.id for m in read_po(f) if m.id and m.fuzzy]
    assert fuzzy == []
