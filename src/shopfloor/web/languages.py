"""Page languages both apps share: which language a browser asks for, and the compiled Babel catalogues.

Each app keeps its catalogues as ``<app>/locale/<lang>/LC_MESSAGES/messages.po`` (in git), compiled to ``.mo``
by ``make catalogues`` (a step of ``make install``, ``make run``, ``make test`` and ``make bench``). A missing
or out-of-date ``.mo`` is refused with the command that builds it: a page never falls back to another
language silently (docs/workshop-pages.md, "Languages"; docs/shifts-agent.md, "The page").
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "messages"


class CatalogueError(RuntimeError):
    """A message catalogue is missing or older than its ``.po`` source."""


def load_catalogue(locale_dir: Path, locale: str, locales: tuple[str, ...]) -> gettext.GNUTranslations:
    """The compiled catalogue of ``locale`` under ``locale_dir`` (one of ``locales``)."""
    if locale not in locales:
        raise CatalogueError(f"No catalogue for {locale!r}; the page languages are {', '.join(locales)}.")
    folder = locale_dir / locale / "LC_MESSAGES"
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


def browser_locale(header: str | None, locales: tuple[str, ...], default: str) -> str:
    """The first of ``locales`` the browser's ``Accept-Language`` asks for (any ``es-*`` is Spanish), else
    ``default``."""
    for tag in accepted_languages(header):
        if tag in locales:
            return tag
    return default
