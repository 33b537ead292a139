"""The PDFs in the page's language: the :class:`~shopfloor.shifts.answers.pdf.Voice` a PDF of an answer or a
period report is drawn in, made from what the page says of it (its "Read as" and scope lines, its status,
the charts' and tables' titles, a comparison's measures and headline), so a PDF says what its page says.

In English the voice is the PDF's own (the answer's and report's English); no figure is computed here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from shopfloor.shifts.answers.pdf import SPOKEN_ENGLISH, Voice
from shopfloor.shifts.pages.answer_view import STATUS_LABELS, figure_text, read_as
from shopfloor.shifts.pages.chart_view import chart_title
from shopfloor.shifts.pages.comparison_view import MEASURE_LABELS, headline_markup
from shopfloor.shifts.pages.i18n import Words, translations
from shopfloor.shifts.pages.report_view import REPORT_TITLES, report_title
from shopfloor.shifts.pages.scope_view import scope_line, window_of


def _status(status: Any, words: Words) -> str:
    return words._(STATUS_LABELS[status]) if status in STATUS_LABELS else str(status)


def _titled(words: Words) -> Any:
    def titled(title: str) -> str:
        if title in REPORT_TITLES:
            return words._(REPORT_TITLES[title])
        return chart_title(title, words)[0]

    return titled


def _measure(words: Words) -> Any:
    def measure(key: str) -> str:
        return words._(MEASURE_LABELS[key]) if key in MEASURE_LABELS else key

    return measure


def _headline(words: Words) -> Any:
    def headline(section: Mapping[str, Any]) -> str | None:
        said = headline_markup(section, set(), words)
        if said is None:
            return None
        # The page's markup as a PDF paragraph's: figures bold, citations as their text (no link).
        return re.sub(r"</?a\b[^>]*>", "", str(said).replace("<strong>", "<b>").replace("</strong>", "</b>"))

    return headline


def _scope(scope: Mapping[str, Any], words: Words) -> str:
    if not scope.get("day"):
        return ""
    return scope_line(
        date.fromisoformat(str(scope["day"])),
        scope.get("shift"),
        str(scope.get("include") or "shift"),
        str(scope.get("period") or "day"),
        words,
    )


def answer_voice(answer: Mapping[str, Any], locale: str) -> Voice:
    """The voice of an answer's PDF in ``locale``."""
    if locale == "en":
        return SPOKEN_ENGLISH
    words = Words(locale)
    return Voice(
        **_spoken(words),
        read_as=read_as(dict(answer), words) or "",
        scope=_scope(answer.get("scope") or {}, words),
        status=_status(answer.get("status"), words),
        measure=_measure(words),
        headline=_headline(words),
    )


def report_voice(report: Mapping[str, Any], shift: int | None, locale: str) -> Voice:
    """The voice of a period report's PDF in ``locale``."""
    if locale == "en":
        return SPOKEN_ENGLISH
    words = Words(locale)
    return Voice(
        **_spoken(words),
        status=_status(report.get("status"), words),
        title=report_title(report, shift, words),
        window=window_of(report.get("window") or {}, words),
    )


def _spoken(words: Words) -> dict[str, Any]:
    """What every PDF's voice in ``words``' language has: its catalogue, titles and windows."""
    return {
        "locale": words.locale,
        "tr": translations(words.locale),
        "titled": _titled(words),
        "window_of": lambda window: window_of(window, words),
        "figure": lambda part: figure_text(part, words),
    }
