"""The /shifts page drawn: the templates in each language (``Pages``), the static allowlist, the request
token's slot and what an error says in the page's language.

What each part of the page shows comes from the view modules beside this one: ``scope_view`` (the scope,
the records, the controls), ``answer_view`` (an answer's sections, citations, trace and tables), ``card_view``
(the KPI cards), ``chart_view`` (the charts), ``report_view`` (a period report) and ``planner_view`` (the
planner control). No figure is computed in any of them: they only choose, order and label what the tools and
the period report returned (docs/shifts-agent.md, "Flow", step 7).
"""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from shopfloor.shifts.pages.answer_view import (
    STATUS_LABELS,
    Parts,
    asked,
    finding_groups,
    is_english,
    is_english_text,
    marked,
    read_as,
    split_sections,
    trace_steps,
)
from shopfloor.shifts.pages.card_view import kpi_groups
from shopfloor.shifts.pages.chart_view import chart_views
from shopfloor.shifts.pages.comparison_view import headline_markup, table_view
from shopfloor.shifts.pages.i18n import ENGLISH, N_, Words, translations
from shopfloor.shifts.pages.planner_view import planner_options
from shopfloor.shifts.pages.report_view import report_context
from shopfloor.shifts.pages.scope_view import (
    EXAMPLES,
    PERIODS,
    PLACEHOLDER,
    day_notice,
    records_line,
    reset_href,
    scope_text,
    shift_hours,
    weekday_names,
)
from shopfloor.shifts.planning.router import MAX_QUESTION_CHARS
from shopfloor.shifts.plant.scope import Scope
from shopfloor.web.static import StaticAllowlist, icon_data_uri, vendor_files

# --- the page's scope, form and rendering -----------------------------------------------------------------

HERE = Path(__file__).resolve().parent


# The static allowlist (shopfloor.web.static): nothing else under /shifts/static is served.
STATIC = StaticAllowlist(
    {
        "shifts.css": (HERE / "static" / "shifts.css", "text/css"),
        "shifts.js": (HERE / "static" / "shifts.js", "text/javascript"),
        "favicon.svg": (HERE / "static" / "favicon.svg", "image/svg+xml"),
        **vendor_files("htmx-2.0.11.min.js"),
    }
)


# What an error says in a language other than English, by its code (docs/errors.md); the envelope's own
# message is English and names the detail, and an English page shows it as it is.
ERROR_TEXTS = {
    "bad_scope": N_("The day, shift or period cannot be read; pick them with the controls."),
    "bad_address": N_("This answer's address cannot be read."),
    "bad_request": N_("The request cannot be read."),
    "question_too_long": N_("The question is too long."),
    "bad_format": N_("That format is not offered: the page, PDF or JSON."),
    "bad_planner": N_("That planner cannot run here."),
    "busy": N_("The investigator is busy; try again in a moment."),
    "no_store": N_("The record store is not prepared; run `shopfloor prepare`."),
    "store_unavailable": N_("The record store cannot be opened now; try again shortly."),
    "not_found": N_("There is nothing at this address."),
    "rate_limited": N_("Too many requests in a minute; try again shortly."),
    "rounds_exhausted": N_(
        "Today's live rounds of this demo are used; ask with the offline planner, or tomorrow."
    ),
    "internal_error": N_("Something failed on the server; it is logged."),
}


# The bare reason phrases of HTTP statuses ("Not Found"): an envelope whose message is only one of them says
# nothing the page's heading does not, so an English page shows the code's sentence instead.
_REASON_PHRASES = frozenset(status.phrase for status in HTTPStatus)


def error_text(code: str, message: str, words: Words = ENGLISH) -> str:
    """An error's message as the page shows it: the envelope's in English (the code's sentence when the
    envelope says only its status's reason phrase, "Not Found"), the code's in another language."""
    if code not in ERROR_TEXTS or (words.locale == "en" and message not in _REASON_PHRASES):
        return message
    return words._(ERROR_TEXTS[code])


# Stands in for the request token in a kept page; each response gets a fresh token in its place.
TOKEN_SLOT = "@@request-token@@"


class Pages:
    """The page templates in each language, and what each page shows besides the answer (the planner, the
    mode); pages are drawn with :data:`TOKEN_SLOT` where the request token goes, and the server fills it per
    response."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self._envs: dict[str, Environment] = {}

    def env(self, locale: str) -> Environment:
        """The template environment of one page language (gettext installed once per language)."""
        env = self._envs.get(locale)
        if env is None:
            env = Environment(
                loader=FileSystemLoader(HERE / "templates"),
                autoescape=select_autoescape(["html"]),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
            )
            env.install_gettext_translations(translations(locale), newstyle=True)  # type: ignore[attr-defined]
            words = Words(locale)
            # static(root, name): a static file's link with its content hash, kept by the browser for good.
            env.globals.update(
                marked=lambda section, numbers=None, bullet=False: marked(section, numbers, bullet, words),
                hours=shift_hours,
                static=lambda root, name: STATIC.url(f"{root}/static", name),
                icon=icon_data_uri(HERE / "static" / "favicon.svg"),
                status_label=lambda status: (
                    words._(STATUS_LABELS[status]) if status in STATUS_LABELS else status
                ),
                words=words,
                # Text the answer's code wrote in English, marked as English on a page in another language
                # (docs/shifts-agent.md, "Languages": what is not translated); en_of(section): a section not
                # said from a template (answers/sayings.py), which stays English.
                en=Markup(' lang="en"') if locale != "en" else Markup(""),
                en_of=lambda section: Markup(' lang="en"') if is_english(section, words) else Markup(""),
                # A table cell or a chart point not said in the page's language (a tool's own English words,
                # answer_view.Cell); none on an English page, whose hundreds of trace cells then cost no call
                # each.
                en_cell=(
                    (lambda value: Markup(' lang="en"') if is_english_text(value, words) else Markup(""))
                    if locale != "en"
                    else None
                ),
            )
            self._envs[locale] = env
        return env

    def base(self, locale: str = "en") -> dict[str, Any]:
        """What every page shows: the request token's slot, the planner in use, the mode, the language."""
        words = Words(locale)
        return {
            "token": TOKEN_SLOT,
            **self.view,
            "planners": planner_options(self.view["planners"], words),
            "examples": EXAMPLES,
            "periods": [(value, words._(label)) for value, label in PERIODS],
            "placeholder": words._(PLACEHOLDER),
            "max_question": MAX_QUESTION_CHARS,
            "locale": locale,
            "other_locale": "es" if locale == "en" else "en",
        }

    def context(
        self,
        answer: dict[str, Any] | None,
        cards_answer: dict[str, Any] | None,
        report: dict[str, Any] | None,
        scope: Scope,
        form: dict[str, Any],
        days: dict[str, Any],
        root: str = "",
        locale: str = "en",
    ) -> dict[str, Any]:
        """The template context of the page or its fragment in ``locale``; ``root`` is the app's mount path
        (the request's ``root_path``), so every link works wherever the app is mounted."""
        words = Words(locale)
        steps = trace_steps(answer, words) if answer else []
        anchors = {
            f"q{s['number']}-r{i + 1}" for s in steps if s["kind"] == "tool" for i in range(len(s["rows"]))
        }
        queries = {str(s["result_id"]): s["number"] for s in steps if s["kind"] == "tool" and s["result_id"]}
        cards = kpi_groups(cards_answer, words) if cards_answer else []
        if cards_answer is not answer:
            for group in cards:
                for card in group["cards"]:
                    card["anchor"] = None  # another run's citation: not a row of this answer's trace
        parts = split_sections(answer["sections"], answer["status"]) if answer else None
        notice = day_notice(scope, days, root, words)
        if parts is not None and notice is not None and answer and answer["status"] == "unavailable":
            # The day has no records: the notice says so in words; the tools' refusals stay in the trace.
            parts = Parts([], [], [], [])
        headline = None
        if parts is not None:
            # The headline leads the answer, above the cards; the findings under them are its detail.
            headline = next((s for s in parts.lead if s["type"] == "headline"), None)
            parts.lead = [s for s in parts.lead if s is not headline]
        side = next((s for s in answer["sections"] if s["type"] == "comparison"), None) if answer else None
        ctx: dict[str, Any] = {
            "answer": answer,
            "read_as": read_as(answer, words) if answer else None,
            "asked": asked(answer, words) if answer else None,
            "parts": parts,
            "headline": headline,
            # A comparison's headline in a language other than English, said by the page from its data.
            "headline_said": headline_markup(headline, None, words) if headline and locale != "en" else None,
            "comparison": table_view(side, None, words) if side else None,
            "groups": finding_groups(parts.lead) if parts else [],
            "charts": chart_views(answer.get("charts", []), queries, words=words) if answer else [],
            "cards": cards,
            "anchors": anchors,
            "steps": steps,
            "report": report,
            "form": form,
            "days": days,
            "scope_text": scope_text(scope, words),
            "reset_href": reset_href(scope, root),
            "root": root,
            "records_line": records_line(days, words),
            "day_notice": notice,
            "weekdays": weekday_names(words),
            # The page's own address, where the language switch comes back to.
            "here": root + answer["address"] if answer and answer.get("address") else reset_href(scope, root),
        }
        if report is not None:
            ctx.update(report_context(report, scope, root, words))
        return ctx

    def render(self, template: str, ctx: dict[str, Any], locale: str = "en") -> str:
        """``index.html`` (the whole page) or ``_main.html`` (the answer region that htmx swaps in, with the
        controls an answer may move swapped out of band) as text, in ``locale``."""
        extra = {"nav": "ask"} if template == "index.html" else {"after_input": True}
        return self.env(locale).get_template(template).render({**self.base(locale), **ctx, **extra})

    def error(self, status: int, code: str, message: str, root: str = "", locale: str = "en") -> str:
        """The error page a browser gets for a refused or failed request (the envelope's status, code and
        message; ``root``: the app's mount path), in ``locale``."""
        message = error_text(code, message, Words(locale))
        context = {**self.base(locale), "status": status, "code": code, "message": message, "root": root}
        return self.env(locale).get_template("error.html").render(context)

    def guide(self, days: dict[str, Any], root: str = "", locale: str = "en") -> str:
        """The field guide (``root``: the app's mount path), in ``locale``."""
        context = {
            **self.base(locale),
            "days": days,
            "records_line": records_line(days, Words(locale)),
            "nav": "guide",
            "root": root,
            "here": root + "/guide",
        }
        return self.env(locale).get_template("guide.html").render(context)
