"""The server's landing page at ``/`` in English or Spanish, and the switch between them.

Its strings are in the server's own Babel catalogues, ``server/locale/<lang>/LC_MESSAGES/messages.po``
(extracted with ``server/babel.cfg`` by ``make messages``, compiled to ``.mo`` by ``make catalogues``), loaded
the one way both apps load theirs (``shopfloor.web.languages``): the server refuses to start with one missing
or older than its ``.po``. The language of the page is chosen as the apps choose theirs (docs/deploy.md,
"The server's own routes"): the switch's choice (the ``shopfloor_lang`` cookie), else the browser's
``Accept-Language`` (any ``es-*`` is Spanish), else English.
"""

from __future__ import annotations

import gettext
import html
from functools import cache
from pathlib import Path

from shopfloor.web.languages import browser_locale, load_catalogue

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LOCALES = ("en", "es")
DEFAULT_LOCALE = "en"
COOKIE = "shopfloor_lang"
# A year, as the Shift Investigator keeps its switch's choice (docs/shifts-agent.md, "Languages").
COOKIE_MAX_AGE_S = 365 * 24 * 3600
# The switch names the other language in that language, as both apps' switches do.
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where the page shows it."""
    return message


@cache
def translations(locale: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``locale`` (one of :data:`LOCALES`)."""
    return load_catalogue(LOCALE_DIR, locale, LOCALES)


def check_catalogues() -> None:
    """Load every catalogue now (not the kept ones), so a missing or stale one stops the server at start."""
    for locale in LOCALES:
        load_catalogue(LOCALE_DIR, locale, LOCALES)


def page_locale(chosen: str | None, accept_language: str | None) -> str:
    """The landing page's language: the switch's choice when it is one of ours, else the browser's."""
    if chosen in LOCALES:
        return str(chosen)
    return browser_locale(accept_language, LOCALES, DEFAULT_LOCALE)


def render(locale: str, mounted: list[tuple[str, str, str]], version: str, model: str) -> str:
    """The page in ``locale``: a link to each mounted app (prefix, title and blurb, each an English message
    id of the catalogue), the switch to the other language, the version and the model."""
    _ = translations(locale).gettext
    e = html.escape
    other = next(lang for lang in LOCALES if lang != locale)
    items = "".join(f'<li><a href="{e(p)}/">{e(_(t))}</a> — {e(_(b))}</li>' for p, t, b in mounted)
    # Its content in a <main> landmark and a phone's width (axe-core, tests/e2e/test_landing.py); the empty
    # icon keeps the browser from asking for a /favicon.ico that is not there (a 404 in every visit's log).
    # The switch is a plain link (strict CSP: no script on this page).
    switch = (
        f'<a href="/language?lang={other}" lang="{other}" hreflang="{other}">{e(LANGUAGE_NAMES[other])}</a>'
    )
    # Outside the f-strings below, where Babel's extraction would not find them.
    nav_label, tagline = _("Language"), _("Assistants that propose; people decide.")
    footer = e(_("version %(version)s · model: %(model)s")) % {"version": e(version), "model": e(model)}
    return (
        f"<!doctype html><html lang={locale}><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        '<link rel=icon href="data:,"><title>shopfloor</title></head>'
        f'<body><header><nav aria-label="{e(nav_label)}">{switch}</nav></header>'
        f"<main><h1>shopfloor</h1><p>{e(tagline)}</p><ul>{items}</ul>"
        f"<p><small>{footer}</small></p></main></body></html>"
    )
