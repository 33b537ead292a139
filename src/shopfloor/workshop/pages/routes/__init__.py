"""The workshop's pages: sign-in, the dashboard (composer and review panel), records, weavers, tags, runs.

Server-rendered with Jinja2; htmx (vendored) swaps the server's HTML for a card or a panel. Every page calls
the code the API calls: the agent run (``run_agent``), the approvals (``apply_decisions``), the repository.
Cookie-authenticated POSTs carry the session's CSRF token in ``x-csrf-token`` (htmx sends it from the body's
``hx-headers``), checked by the same ``current_actor`` as the API. See docs/workshop-pages.md.
"""

from __future__ import annotations

from fastapi import APIRouter

from shopfloor.workshop.pages.page import SIGNED_IN
from shopfloor.workshop.pages.routes import dashboard, hats, offline, runs, signin, tokens, weavers

router = APIRouter()
# One module per page family, in the order their routes are matched. The sign-in family says per route what
# it answers; every other page needs a session (``SIGNED_IN``, in the OpenAPI document).
for family in (signin, dashboard, hats, weavers, tokens, runs, offline):
    router.include_router(family.router, responses=None if family is signin else SIGNED_IN)

__all__ = ["router"]
