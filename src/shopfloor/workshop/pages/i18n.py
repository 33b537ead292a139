"""Page languages: Spanish and English message catalogues (Babel/gettext), and which one a request gets.

The catalogues are ``shopfloor/workshop/locale/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` by
``make catalogues``, loaded and chosen the one way both apps share (``shopfloor.web.languages``).
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from shopfloor.web.languages import CatalogueError, accepted_languages, load_catalogue
from shopfloor.web.languages import browser_locale as _browser_locale

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LOCALES = ("es", "en")
DEFAULT_LOCALE = "en"
MEMBER_LOCALE = "es"
# The browser's speech recognition language for each page language (Ecuadorian Spanish for the workshop).
SPEECH_LANG = {"es": "es-EC", "en": "en-US"}

__all__ = ["CatalogueError", "accepted_languages", "browser_locale", "page_locale", "translations"]


@cache
def translations(locale: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``locale`` (one of :data:`LOCALES`; ``shopfloor.web.languages``)."""
    return load_catalogue(LOCALE_DIR, locale, LOCALES)


def browser_locale(header: str | None) -> str:
    """The page language for someone not signed in: the first of ours the browser asks for (any ``es-*`` is
    Spanish), else English."""
    return _browser_locale(header, LOCALES, DEFAULT_LOCALE)


def page_locale(saved: str | None, role: str | None, accept_language: str | None) -> str:
    """The language of a page: the user's saved choice; else Spanish for a member; else the browser's."""
    if saved in LOCALES:
        return str(saved)
    if role == "member":
        return MEMBER_LOCALE
    return browser_locale(accept_language)
