"""Jinja2 for the pages: one environment per language (gettext installed once, so rendering is thread-safe),
autoescaping on for every template, and the labels of the record vocabulary marked for translation."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

from shopfloor.workshop.pages.i18n import LOCALES, translations

TEMPLATES = Path(__file__).resolve().parent / "templates"


def N_(message: str) -> str:
    """Marks a message for extraction; it is translated where it is shown."""
    return message


# The record vocabulary is English in the store; these are what a person reads.
STAGE_LABELS = {
    "Weaving": N_("Weaving"),
    "Washing": N_("Washing"),
    "Bleaching": N_("Bleaching"),
    "Blocking": N_("Blocking"),
    "Finished": N_("Finished"),
}
GRADE_LABELS = {"Standard": N_("Standard"), "Fino": N_("Fino"), "Superfino": N_("Superfino")}
STRAW_LABELS = {"Natural": N_("Natural"), "Bleached": N_("Bleached"), "Dyed": N_("Dyed")}
FLAG_LABELS = {
    "grade_mismatch": N_("Grade does not match rows"),
    "too_fast": N_("Left weaving too fast"),
    "weaver_not_found": N_("Weaver missing"),
    "other": N_("Other problem"),
}
STATUS_LABELS = {
    "pending": N_("To review"),
    "question": N_("Question"),
    "blocked": N_("Blocked"),
    "approved": N_("Approved"),
    "rejected": N_("Rejected"),
    "failed": N_("Failed"),
}
RUN_STATUS_LABELS = {
    "running": N_("Running"),
    "proposed": N_("Proposed"),
    "failed": N_("Failed"),
    "stopped": N_("Stopped"),
    "approved": N_("Approved"),
    "partially_approved": N_("Partly approved"),
    "rejected": N_("Rejected"),
}
OUTCOME_LABELS = {
    "applied": N_("Applied"),
    "rejected": N_("Rejected; nothing was changed."),
    "answered": N_("Answer saved"),
    "unchanged": N_("Nothing changed"),
    "blocked": N_("Now blocked"),
    "conflict": N_("Conflict: the record changed meanwhile"),
    "not_found": N_("Not found"),
    "invalid": N_("Not accepted"),
}
WARNING_LABELS = {
    "too_fast": N_("Leaves weaving sooner than this grade usually takes."),
    "open_proposal_exists": N_("Another open card is about this hat."),
    "grade_mismatch": N_("The grade does not fit the rows per inch."),
    "not_confirmed_by_record": N_("The record does not show this problem; check it."),
}
EVENT_LABELS = {
    "created": N_("Created"),
    "stage_changed": N_("Stage changed"),
    "flag_raised": N_("Flag raised"),
    "flag_resolved": N_("Flag resolved"),
    "owner_changed": N_("Owner changed"),
}


def _when(value: datetime | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.strftime("%Y-%m-%d %H:%M")


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
    )
    env.filters["when"] = _when
    return env


def render(locale: str, name: str, **context: Any) -> str:
    """Render template ``name`` in ``locale``."""
    return environment(locale).get_template(name).render(locale=locale, **context)


def check_catalogues() -> None:
    """Load every catalogue now, so a missing one stops the server at start rather than on a page."""
    for locale in LOCALES:
        environment(locale)
