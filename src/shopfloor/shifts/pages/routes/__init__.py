"""The /shifts routes, one module per page family (``src/shopfloor/shifts/pages/README.md``): the page and
its field guide, answers by address (a question redirected to its address), asking from the page, period
reports, static files. :data:`ROUTERS` lists them in the
order the app includes them (the order of its OpenAPI document)."""

from __future__ import annotations

from fastapi import APIRouter

from shopfloor.shifts.pages.routes import answers, ask, page, reports, static

ROUTERS: tuple[APIRouter, ...] = (page.router, answers.router, ask.router, reports.router, static.router)
