"""The /shifts pages' languages: English and Spanish message catalogues (Babel/gettext), which one a request
gets, and :class:`Words`, what the page's own code says in that language (dates, windows, counts).

The catalogues are ``shopfloor/shifts/locale/<lang>/LC_MESSAGES/messages.po``, extracted by ``make messages``
(configuration in ``pages/babel.cfg``) and compiled to ``.mo`` by ``make catalogues``; they load and are chosen
the one way both apps share (``shopfloor.web.languages``). The language of a page: the switch's choice (the
``shifts_lang`` cookie) when it names one of ours, else the browser's ``Accept-Language`` (any ``es-*`` is
Spanish, otherwise English), as the workshop chooses before sign-in (docs/shifts-agent.md, "The page").
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

from babel.dates import format_date

from shopfloor.web.languages import browser_locale, load_catalogue

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LOCALES = ("en", "es")
DEFAULT_LOCALE = "en"
COOKIE = "shifts_lang"


def N_(message: str) -> str:
    """Marks a message for extraction where it is defined; it is translated where it is shown."""
    return message


@cache
def translations(locale: str) -> gettext.GNUTranslations:
    """The compiled catalogue of ``locale`` (one of :data:`LOCALES`)."""
    return load_catalogue(LOCALE_DIR, locale, LOCALES)


def page_locale(chosen: str | None, accept_language: str | None) -> str:
    """The language of a page: the switch's choice when it is one of ours, else the browser's."""
    if chosen in LOCALES:
        return str(chosen)
    return browser_locale(accept_language, LOCALES, DEFAULT_LOCALE)


def check_catalogues() -> None:
    """Load every catalogue now, so a missing one stops the server at start rather than on a page."""
    for locale in LOCALES:
        translations(locale)


@dataclass(frozen=True)
class Words:
    """What the page's code says in one language: messages, plurals, and dates as the page writes them."""

    locale: str

    def _(self, message: str) -> str:
        """``message`` in this language."""
        return translations(self.locale).gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in this language as it is said in ``context`` (a name with its article, say)."""
        return translations(self.locale).pgettext(context, message)

    def ngettext(self, singular: str, plural: str, count: int, **params: object) -> str:
        """The plural form of a message for ``count``, filled in (``{n}`` in it is the count)."""
        return translations(self.locale).ngettext(singular, plural, count).format(n=count, **params)

    def day(self, value: date) -> str:
        """A production day: "Mon 2026-09-14" ("lun 2026-09-14")."""
        return f"{format_date(value, 'EEE', locale=self.locale)} {value.isoformat()}"

    def month(self, value: date) -> str:
        """A calendar month: "September 2026" ("septiembre 2026")."""
        return format_date(value, "LLLL y", locale=self.locale)


ENGLISH = Words("en")
