"""What the /shifts routes share, kept on ``app.state.shifts`` and taken by each route as a FastAPI
dependency (:data:`ShiftsDep`): the settings, the worker processes, the request tokens, the shared counter,
and the few steps every page family takes (an answer by address, a report, the page laid out)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import HTMLResponse, JSONResponse

from shopfloor.settings import Settings
from shopfloor.shifts.pages import card_view, i18n, planner_view, scope_view, views, work
from shopfloor.shifts.pages.guard import TOKEN_SALT
from shopfloor.shifts.pages.limits import Counter, make_counter
from shopfloor.shifts.pages.params import REPORT_PERIODS
from shopfloor.shifts.pages.runner import Runner, store_version
from shopfloor.shifts.planning.accounting import read_whole
from shopfloor.shifts.planning.plans import Plan, parse_address
from shopfloor.shifts.planning.router import route
from shopfloor.shifts.plant.scope import Scope
from shopfloor.web.errors import ApiError
from shopfloor.web.tokens import RequestTokens


def by_address(question: str, scope: Scope, after: str | None) -> str | None:
    """The address that answers ``question`` as asked, or ``None``: a refusal, or a question the router did
    not read whole (its address would answer ``complete`` without the line naming the words it left out,
    docs/shifts-agent.md, "The three rules"), is answered by the investigator itself."""
    routed = route(question, scope, parse_address(after) if after else None)
    if isinstance(routed, Plan) and read_whole(question, routed):
        return routed.address()
    return None


class ShiftsState:
    """The app's shared pieces, made once by ``create_app``; each investigation, page and PDF runs in the
    worker processes of :attr:`runner`, and an address's answer is kept there (docs/security.md)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        workers = 1 if settings.public else settings.shifts_max_concurrency
        self.runner = Runner(workers, settings.shifts_max_waiting, settings.shifts_answer_cache)
        self.tokens = RequestTokens(settings.session_secret(), TOKEN_SALT)
        self.view = planner_view.page_view(settings)
        self.pages = views.Pages(self.view)  # only the error page is drawn in the server process
        self.db = settings.shifts_db_path()
        self.planners = {choice["name"]: choice for choice in self.view["planners"]}
        # One counter for the shared per-minute limit and the public demo's daily rounds (several processes
        # share it).
        self.rounds: Counter = make_counter(settings.redis_url, settings.var_dir)

    def html(self, text: str, headers: dict[str, str] | None = None) -> HTMLResponse:
        """A drawn page with a fresh request token in its slot."""
        return HTMLResponse(text.replace(views.TOKEN_SLOT, self.tokens.issue()), headers=headers)

    def chosen_planner(self, name: str | None) -> str:
        """The planner the ask names (the offline one when it names none), if it can run here; else 400."""
        name = (name or "offline").strip() or "offline"
        choice = self.planners.get(name)
        if choice is None:
            raise ApiError(400, "bad_planner", f"No planner is named {name!r}.")
        if not choice["enabled"]:
            raise ApiError(400, "bad_planner", f"The planner {name} cannot run here: {choice['why']}.")
        return name

    async def version(self) -> tuple[int, int]:
        """The record store's version: kept answers are kept per version."""
        return store_version(self.db)

    async def kept_answer(self, address: str) -> dict[str, Any] | None:
        """The answer at ``address`` if it is kept (for this store version), else None."""
        found: dict[str, Any] | None = self.runner.kept(("answer", address, await self.version()))
        return found

    async def answer_for(self, address: str) -> dict[str, Any]:
        """The answer at ``address`` (kept per address and store version)."""
        key = ("answer", address, await self.version())
        return await self.runner.once(key, work.answer, self.db, address)

    async def asked(self, question: str, scope: Scope, after: str | None) -> dict[str, Any]:
        """The offline answer to ``question`` (``after``: the answer a follow-up refers to): its address's
        answer when the router reads it whole, else the investigator's own run, a partial answer naming
        the words it did not use, or a refusal."""
        address = by_address(question, scope, after)
        if address is not None:
            answer = dict(await self.answer_for(address))
            answer["question"] = question
            return answer
        return await self.runner.run(work.ask, self.db, question, scope, after)

    async def report_for(self, period: str, day: date, shift: int | None) -> dict[str, Any]:
        """The period report of the window holding ``day`` (kept per store version)."""
        key = ("report", period, day, shift, await self.version())
        return await self.runner.once(key, work.report, self.db, period, day, shift)

    async def days(self) -> dict[str, Any]:
        """The record store's span: first and last production day, the count of days, Monday to Friday."""
        return await self.runner.once(("days", await self.version()), work.days, self.db)

    async def drawn(
        self,
        template: str,
        answer: dict[str, Any] | None,
        scope: Scope,
        form: dict[str, Any],
        root: str,
        locale: str = i18n.DEFAULT_LOCALE,
        address: str | None = None,
    ) -> str:
        """The page or the answer fragment in ``locale``: the answer, its cards, the window's report, laid
        out and with its charts drawn in a worker process, never in the server's; its links start at
        ``root``, the path the app is mounted at (:func:`root_path`).

        ``address`` (with no ``answer``): the address whose answer the page shows, not kept yet. It is
        investigated in the same job that draws the page, and the cards' KPI answer when it is not kept
        either, over one connection (``work.page``); both are kept by address as :meth:`answer_for` keeps
        them, and one address asked at once by several requests is drawn once."""
        if answer is not None and not answer.get("address") and answer.get("after") and not form.get("after"):
            form = {**form, "after": answer["after"]}
        version = await self.version()
        cards_answer = answer
        cards_address = None
        if answer is None or not card_view.kpi_groups(answer):
            cards_answer = None
            kpis = scope_view.kpis_address(scope)
            if kpis is not None:
                cards_answer = await self.kept_answer(kpis)
                if cards_answer is None:
                    cards_address = kpis
        report = None
        if scope.period in REPORT_PERIODS:
            report = await self.report_for(scope.period, scope.day, scope.shift)
        parts = {
            "answer": answer,
            "cards_answer": cards_answer,
            "report": report,
            "scope": scope,
            "form": form,
            "days": await self.days(),
            "root": root,
            "locale": locale,
        }
        if address is None and cards_address is None:
            return await self.runner.run(work.render, self.view, template, parts)
        # Kept by ``once`` only while it runs: the answers are kept by address below, the text by the route.
        key = ("drawn", template, address, cards_address, root, locale, version)
        found = await self.runner.once(
            key, work.page, self.db, self.view, template, parts, address, cards_address, keep=False
        )
        for at, name in ((address, "answer"), (cards_address, "cards_answer")):
            if at is not None and found[name] is not None:
                self.runner.keep(("answer", at, version), found[name])
        return str(found["text"])


def json_answer(data: dict[str, Any]) -> JSONResponse:
    """An answer as JSON. An answer is plain JSON data already (it crossed from a worker process as such), so
    it is encoded as it is, without ``jsonable_encoder``'s walk over every value (most of a first visit's
    JSON time in the server process); data that is not plain JSON goes through ``jsonable_encoder`` as
    before, to the same text."""
    try:
        return JSONResponse(data)
    except TypeError:
        return JSONResponse(jsonable_encoder(data))


def root_path(request: Request) -> str:
    """The path the app is mounted at (``/shifts`` in the server's app): every link and redirect starts here."""
    return str(request.scope.get("root_path", ""))


def page_locale(request: Request) -> str:
    """The language of the request's page: the switch's choice (its cookie), else the browser's
    (``pages/i18n.py``)."""
    return i18n.page_locale(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))


def error_page(request: Request, status: int, code: str, message: str) -> str:
    """The app's error page for a browser (``shopfloor.web.errors``, ``install_error_handlers(page=...)``),
    in the page's language, with a fresh request token and links from the app's mount path."""
    shifts = shifts_state(request)
    text = shifts.pages.error(status, code, message, root_path(request), page_locale(request))
    return text.replace(views.TOKEN_SLOT, shifts.tokens.issue())


def shifts_state(request: Request) -> ShiftsState:
    """FastAPI dependency: the app's :class:`ShiftsState`."""
    state: ShiftsState = request.app.state.shifts
    return state


ShiftsDep = Annotated[ShiftsState, Depends(shifts_state)]
