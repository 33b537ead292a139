"""Page languages: Spanish and English message catalogues (Babel/gettext), and which one a request gets.

The catalogues are ``shopfloor/workshop/locale/<lang>/LC_MESSAGES/messages.po``, compiled to ``.mo`` by
``make catalogues`` (a step of ``make install``, ``make test`` and ``make run``). A missing or out-of-date
``.mo`` is refused with the command that builds it: pages never fall back to another language silently.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
LOCALES = ("es", "en")
DEFAULT_LOCALE = "en"
MEMBER_LOCALE = "es"
# The browser's speech recognition language for each page language (Ecuadorian Spanish for the workshop).
SPEECH_LANG = {"es": "es-EC", "en": "en-US"}


class CatalogueError(RuntimeError):
    """A message catalogue is missing or older than its ``.po`` source."""


@cache
def translations(locale: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``locale`` (one of :data:`LOCALES`)."""
    if locale not in LOCALES:
        raise CatalogueError(f"No catalogue for {locale!r}; the page languages are {', '.join(LOCALES)}.")
    folder = LOCALE_DIR / locale / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if not mo.is_file() or (po.is_file() and po.stat().st_mtime > mo.stat().st_mtime):
        raise CatalogueError(f"{mo} is missing or older than its .po; build it with `make catalogues`.")
    with mo.open("rb") as fp:
        return gettext.GNUTranslations(fp)


def accepted_languages(header: str | None) -> list[str]:
    """The primary language tags of an ``Accept-Language`` header, most wanted first (``q=0`` dropped)."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary and primary != "*" and q > 0:
            weighted.append((-q, position, primary))
    return [tag for _, _, tag in sorted(weighted)]


def browser_locale(header: str | None) -> str:
    """The page language for someone not signed in: the first of ours the browser asks for (any ``es-*`` is
    Spanish), else English."""
    for tag in accepted_languages(header):
        if tag in LOCALES:
            return tag
    return DEFAULT_LOCALE


def page_locale(saved: str | None, role: str | None, accept_language: str | None) -> str:
    """The language of a page: the user's saved choice; else Spanish for a member; else the browser's."""
    if saved in LOCALES:
        return str(saved)
    if role == "member":
        return MEMBER_LOCALE
    return browser_locale(accept_language)
