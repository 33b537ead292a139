"""Jinja2 for the pages: one environment per language (gettext installed once, so rendering is thread-safe),
autoescaping on for every template, the record vocabulary's labels (``labels.py``) and the rules' messages
in the page's language (``messages.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from shopfloor.agent.spend import money
from shopfloor.web.static import VENDOR, VersionedStaticFiles, icon_data_uri
from shopfloor.workshop.pages.i18n import LOCALES, browser_locale, translations
from shopfloor.workshop.pages.labels import (
    EVENT_LABELS,
    FLAG_LABELS,
    GRADE_LABELS,
    OUTCOME_LABELS,
    RUN_STATUS_LABELS,
    STAGE_LABELS,
    STATUS_LABELS,
    STRAW_LABELS,
    TOKEN_STATUS_LABELS,
    WARNING_LABELS,
)
from shopfloor.workshop.pages.messages import Say

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATIC_FILES = VersionedStaticFiles(Path(__file__).resolve().parent / "static")
VENDOR_FILES = VersionedStaticFiles(VENDOR)


def _when(value: datetime | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.strftime("%Y-%m-%d %H:%M")


def local_time(value: datetime | None) -> Markup:
    """A moment for the person's own clock: ``<time data-local-time>`` with the UTC instant in ``datetime`` and,
    as its text, the UTC time marked "UTC"; the page's script says it again in the browser's time zone and the
    page's language (static/app.js, docs/workshop-pages.md "Offline"). A naive value is taken as UTC."""
    if value is None:
        return Markup("")
    moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return Markup('<time datetime="{}" data-local-time>{} UTC</time>').format(
        moment.isoformat(), moment.strftime("%Y-%m-%d %H:%M")
    )


@cache
def environment(locale: str) -> Environment:
    """The template environment of one page language."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations(locale), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        stage_labels=STAGE_LABELS,
        grade_labels=GRADE_LABELS,
        straw_labels=STRAW_LABELS,
        flag_labels=FLAG_LABELS,
        status_labels=STATUS_LABELS,
        run_status_labels=RUN_STATUS_LABELS,
        outcome_labels=OUTCOME_LABELS,
        warning_labels=WARNING_LABELS,
        event_labels=EVENT_LABELS,
        token_status_labels=TOKEN_STATUS_LABELS,
    )
    # static(root, "app.css"): a static file's link with its content hash (src/shopfloor/web/static.py).
    env.globals["static"] = lambda root, name: (
        VENDOR_FILES.url(f"{root}/static/vendor", name[len("vendor/") :])
        if name.startswith("vendor/")
        else STATIC_FILES.url(f"{root}/static", name)
    )
    env.globals["icon"] = icon_data_uri(STATIC_FILES.folder / "favicon.svg")
    env.filters["when"] = _when
    env.filters["local_time"] = local_time
    env.filters["usd"] = money
    catalogue = translations(locale)
    # What the rules, the approvals and the offline reader say, in this language (pages/messages.py).
    env.globals["say"] = Say(catalogue.gettext, catalogue.ngettext)
    return env


def render(locale: str, name: str, *, root: str, **context: Any) -> str:
    """Render template ``name`` in ``locale``; ``root`` is where the workshop app is mounted (its requests'
    ``root_path``), the start of every link in the templates."""
    return environment(locale).get_template(name).render(locale=locale, root=root, **context)


def error_page(request: Request, status: int, code: str, message: str) -> str:
    """The workshop's error page for a browser asking for a page, in the browser's language: the hook of
    ``install_error_handlers(app, page=...)`` (src/shopfloor/web/README.md)."""
    locale = browser_locale(request.headers.get("accept-language"))
    root = str(request.scope.get("root_path", ""))
    return render(locale, "error.html", root=root, status=status, message=message, actor=None)


def check_catalogues() -> None:
    """Load every catalogue now, so a missing one stops the server at start rather than on a page."""
    for locale in LOCALES:
        environment(locale)
