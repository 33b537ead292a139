"""HTTP routes of Shift Investigator, mounted at /shifts by the main app (docs/URLS.md, docs/security.md).

The routes are named functions in :mod:`shopfloor.shifts.pages.routes`, one module per page family
(``src/shopfloor/shifts/pages/README.md``):

- ``GET /`` the page; ``GET /guide`` the field guide; ``GET /scope`` the live scope line (a fragment);
  ``GET /language`` the language switch (a cookie, then back to the page).
- ``GET /q`` resolves a question with the offline router and redirects (303) to its canonical address.
- ``GET /a`` answers an address as the page (``format=pdf``: a PDF, ``format=json``), ``GET /a.json`` as JSON.
- ``POST /ask`` asks from the page (JSON body, the page's request token): the answer's fragment for htmx,
  otherwise the answer as JSON. Its ``planner`` is the page's planner control (offline unless a planner
  whose key is set is chosen; public mode offline only).
- ``GET /report`` a period report (JSON, ``format=pdf`` or ``format=html``).
- ``GET /static/…`` the allowlisted static files.

Apart from a live planner chosen on the page for ``POST /ask``, none of these calls a model, carries a key or
keeps a session: follow-up context is the ``after=`` chain inside the address. Every route sits behind
:class:`~shopfloor.shifts.pages.guard.ShiftsGuard`. Investigations, pages and PDFs are drawn in the
investigator's own worker processes, and an address's answer is kept, so the page, its JSON and its PDF are
one retained answer (:mod:`shopfloor.shifts.pages.runner`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from shopfloor.settings import Settings
from shopfloor.shifts.pages.deps import ShiftsState, error_page
from shopfloor.shifts.pages.guard import ShiftsGuard
from shopfloor.shifts.pages.i18n import check_catalogues
from shopfloor.shifts.pages.routes import ROUTERS
from shopfloor.web.errors import install_error_handlers


def create_app(settings: Settings) -> FastAPI:
    """The Shift Investigator sub-app, behind its guard; its lifespan starts and stops the worker processes.
    A page catalogue missing or older than its ``.po`` stops it here (``CatalogueError``)."""
    check_catalogues()
    shifts = ShiftsState(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        shifts.runner.start()
        try:
            yield
        finally:
            shifts.runner.close()

    app = FastAPI(title="Shift Investigator", docs_url=None, redoc_url=None, lifespan=lifespan)
    install_error_handlers(app, page=error_page)
    app.state.shifts = shifts
    for router in ROUTERS:
        # Each route joins the app itself (not as an included router), so ``app.routes`` names every path the
        # guard stands in front of.
        app.router.routes.extend(router.routes)
    # Outermost of the app's middleware: every route, its errors and its static files pass the guard first.
    app.add_middleware(
        ShiftsGuard, settings=settings, tokens=shifts.tokens, counter=shifts.rounds, routes=app.router.routes
    )
    return app
