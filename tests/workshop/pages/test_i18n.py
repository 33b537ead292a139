"""Page languages: which one a request gets, and catalogues that cover every page string."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from shopfloor.workshop.agent.offline import wording
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


# Words that only the informal "tú" uses: its pronouns and possessives, and the verb forms and imperatives the
# pages would use. Members are addressed as "usted" (docs/workshop-pages.md, "Languages").
TU_WORDS = {
    "tu",
    "tus",
    "tuya",
    "tuyo",
    "tuyas",
    "tuyos",
    "contigo",
    "puedes",
    "tienes",
    "quieres",
    "debes",
    "prueba",
    "intenta",
    "inténtalo",
    "vuelve",
    "elige",
    "toca",
    "pulsa",
    "escribe",
    "revisa",
    "revísalo",
    "revísala",
    "apruébala",
    "recarga",
    "di",
    "preguntaste",
}
# Where one of those words is not the informal "you": the signal comes back, how a month is written, a
# cause's proof.
TU_WORD_OK = (
    "cuando vuelve la señal",
    "se escribe",
    "la prueba de una",
    "una prueba de la",
    "no prueba de una",
)


def informal_words(text: str) -> set[str]:
    """The words of ``text`` that address the reader as "tú" (:data:`TU_WORDS`), its allowed phrases aside."""
    for phrase in TU_WORD_OK:
        text = text.replace(phrase, "")
    return {w for w in re.findall(r"\w+", text.lower()) if w in TU_WORDS}


def test_the_register_check_finds_the_informal_you() -> None:
    assert informal_words("Tu sesión terminó: vuelve a entrar.") == {"tu", "vuelve"}
    assert informal_words("Su sesión terminó: vuelva a entrar.") == set()
    assert informal_words("se envía cuando vuelve la señal") == set()


def test_spanish_addresses_the_person_as_usted() -> None:
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalogue = read_po(f)
    informal: dict[str, set[str]] = {}
    for message in catalogue:
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        found: set[str] = set().union(*(informal_words(s) for s in strings))
        if message.id and found:
            informal[str(message.id)] = found
    offline = {k: informal_words(v) for k, v in wording.TEXT["es"].items() if informal_words(v)}
    assert informal == {}
    assert offline == {}
